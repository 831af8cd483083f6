import * as vscode from 'vscode';
import { codeBlock } from '../kit/markdownText';

/**
 * Tooltips that show text from the server (names, ids, error messages, event data). Such text is
 * written by whoever runs the server, and a tooltip renders Markdown when hovered: an image there
 * would be fetched from any address, a link could name a command. So server text goes in through
 * the helpers of src/platform/kit/markdownText.ts (escaped character by character, ids as code only when
 * they are plain, blocks of data fenced and cut to maxTooltipBlockChars), and the MarkdownString is
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

/** A fenced block of server data in a tooltip: the text cannot close the fence, and is cut to maxTooltipBlockChars. */
export function tooltipCodeBlock(text: string, language = ''): string {
  return codeBlock(text, language, maxTooltipBlockChars);
}
