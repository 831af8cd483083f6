/**
 * Cuts text for a model's context at a line end when one is near, and says how much was left out,
 * so the model knows the answer is partial. No `vscode` import.
 */
export function capText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const room = Math.max(0, maxChars - 80);
  const lineEnd = text.lastIndexOf('\n', room);
  const cut = lineEnd > room * 0.8 ? lineEnd : room;
  const omittedLines = text.slice(cut).split('\n').length;
  return `${text.slice(0, cut)}\n… cut: ${text.length - cut} more characters (${omittedLines} lines) not shown.`;
}
