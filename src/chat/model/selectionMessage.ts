/** Turns an editor selection into the first message of a chat about it. */
export interface SelectionSource {
  text: string;
  languageId: string;
  /** Path relative to the workspace, or the file name. */
  fileLabel: string;
  startLine: number;
  endLine: number;
}

const proseLanguages = new Set(['markdown', 'plaintext', 'text']);

export function selectionMessage(source: SelectionSource): string {
  const text = source.text.replace(/\s+$/, '');
  if (proseLanguages.has(source.languageId)) return text;
  const lines = source.startLine === source.endLine ? `line ${source.startLine}` : `lines ${source.startLine}–${source.endLine}`;
  // A loop, not Math.max(...runs): spreading one argument per run overflows the stack on a long selection.
  let longestRun = 2;
  for (const run of text.match(/`{3,}/g) ?? []) if (run.length > longestRun) longestRun = run.length;
  const fence = '`'.repeat(longestRun + 1);
  return `From \`${source.fileLabel}\` (${lines}):\n\n${fence}${source.languageId}\n${text}\n${fence}`;
}
