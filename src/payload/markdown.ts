/** A Markdown code span that shows `text` verbatim, whatever backticks it holds. */
export function inlineCode(text: string): string {
  if (text.length === 0) return '*(blank)*';
  let fence = '`';
  while (text.includes(fence)) fence += '`';
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}
