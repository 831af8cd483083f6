/** Escapes text for a MarkdownString, so names from the server are shown, never interpreted. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>$]/g, '\\$&');
}
