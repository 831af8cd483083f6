/**
 * Text placed into Markdown so that it shows as written: server text, names, ids and file contents
 * in tooltips, hovers and exported documents. Nothing here builds a link, an image or HTML from the
 * text it is given.
 */

/**
 * Text shown as written: every ASCII punctuation mark escaped (CommonMark lets any of them be
 * escaped), so nothing in it opens a link, an image, a tag, an entity, emphasis or a theme icon,
 * and line breaks become spaces, so it cannot start a block of its own.
 */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\r\n\u2028\u2029]+/g, ' ').replace(/[!-/:-@[-`{-~]/g, '\\$&');
}

/** A Markdown code span that shows `text` verbatim, whatever backticks it holds. */
export function inlineCode(text: string): string {
  if (text.length === 0) return '*(blank)*';
  const fence = '`'.repeat(longestBacktickRun(text) + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/** An id as inline code when it is made of plain characters (and not long); escaped text otherwise. */
export function codeText(text: string): string {
  return /^[\w.:/@+=-]{1,200}$/.test(text) ? `\`${text}\`` : escapeMarkdown(text);
}

/** The backticks that fence a code block of `text`: at least three, and more than any run inside, so the text cannot close the block. */
export function codeFence(text: string): string {
  return '`'.repeat(Math.max(3, longestBacktickRun(text) + 1));
}

/**
 * A fenced code block of `text`, cut to `maxChars` characters (an ellipsis line says it was cut).
 * The language tag is kept only when it is a plain word.
 */
export function codeBlock(text: string, language = '', maxChars = Number.POSITIVE_INFINITY): string {
  const shown = text.length > maxChars ? `${text.slice(0, maxChars)}\n…` : text;
  const fence = codeFence(shown);
  return `\n${fence}${/^\w+$/.test(language) ? language : ''}\n${shown}\n${fence}\n`;
}

/** The longest run of backticks in `text`, found in one pass (searching for ever longer fences would take as many passes as the longest run is long). */
function longestBacktickRun(text: string): number {
  let longest = 0;
  let run = 0;
  for (let at = 0; at < text.length; at++) {
    run = text.charCodeAt(at) === 0x60 ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  return longest;
}
