import * as vscode from 'vscode';

/**
 * Tooltips that show text from the server (names, ids, error messages, event data). Such text is
 * written by whoever runs the server, and a tooltip renders Markdown when hovered: an image there
 * would be fetched from any address, a link could name a command. So server text is escaped
 * character by character, ids appear only as code when they are plain, and the MarkdownString is
 * untrusted with HTML off.
 */

/** At most this many characters of a block of server data go into a tooltip. */
export const maxTooltipBlockChars = 4000;

/** A MarkdownString for a tooltip: not trusted (no command links), no HTML. */
export function tooltipMarkdown(options: { themeIcons?: boolean } = {}): vscode.MarkdownString {
  const markdown = new vscode.MarkdownString('', options.themeIcons ?? false);
  markdown.isTrusted = false;
  markdown.supportHtml = false;
  return markdown;
}

/**
 * Text shown as written: every ASCII punctuation mark escaped (CommonMark lets any of them be
 * escaped), so nothing in it opens a link, an image, a tag, an entity, emphasis or a theme icon,
 * and line breaks become spaces, so it cannot start a block of its own.
 */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\r\n\u2028\u2029]+/g, ' ').replace(/[!-/:-@[-`{-~]/g, '\\$&');
}

/** An id as inline code when it is made of plain characters; escaped text otherwise. */
export function codeText(text: string): string {
  return /^[\w.:/@+=-]{1,200}$/.test(text) ? `\`${text}\`` : escapeMarkdown(text);
}

/**
 * A fenced code block of server data: the fence is longer than any run of backticks in the text,
 * so the text cannot close it, and the text is cut to a bounded length.
 */
export function codeBlock(text: string, language = ''): string {
  const shown = text.length > maxTooltipBlockChars ? `${text.slice(0, maxTooltipBlockChars)}\n…` : text;
  const longestRun = Math.max(0, ...[...shown.matchAll(/`+/g)].map((match) => match[0].length));
  const fence = '`'.repeat(Math.max(3, longestRun + 1));
  return `\n${fence}${/^\w+$/.test(language) ? language : ''}\n${shown}\n${fence}\n`;
}
