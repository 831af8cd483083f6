/** A Markdown code span that shows `text` verbatim, whatever backticks it holds. */
export function inlineCode(text: string): string {
  if (text.length === 0) return '*(blank)*';
  // The fence is one backtick longer than the longest run inside, found in one pass (searching
  // for ever longer fences would take as many passes as the longest run is long).
  let longestRun = 0;
  let run = 0;
  for (let at = 0; at < text.length; at++) {
    run = text.charCodeAt(at) === 0x60 ? run + 1 : 0;
    if (run > longestRun) longestRun = run;
  }
  const fence = '`'.repeat(longestRun + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}
