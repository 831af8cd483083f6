/**
 * Text that came from a server or a file (model names, ids, metric keys, failure messages, file
 * names), placed in the plain text a tool answers with, so it can never pass for a line, a bullet
 * or a fact of RL Studio's own. No `vscode` import.
 */
import { escapeForOneLine, quoted } from '../kit/confirmationText';

/** Characters of a name (model, webhook, file, label) quoted at most. */
export const maxNameChars = 200;

/**
 * An id or a key as it is when it is one plain token (`m-1`, `train/loss`, `Qwen/Qwen3-8B`):
 * nothing in it can start a line or read as words. Anything else (spaces, line breaks, controls,
 * `·`, over `maxChars`) is quoted, its breaks shown as escapes.
 */
export function foreignToken(text: string, maxChars = 120): string {
  return text.length <= maxChars && /^[\w.:/@+=-]+$/.test(text) ? text : quoted(text, maxChars);
}

/** A name always inside visible quotes: a model named `step 24 · reward 0.99` reads as a name. */
export function foreignName(text: string, maxChars = maxNameChars): string {
  return quoted(text, maxChars);
}

/**
 * RL Studio's own sentence that carries foreign text inside it (a parse problem quoting the file, a
 * failure described with the server's detail): kept on one line, its line breaks, controls and
 * direction marks shown as escapes, cut with `…` past `maxChars`. No quotes are added: the words
 * are RL Studio's; only what could break the line is made visible.
 */
export function escapedLine(text: string, maxChars = 300): string {
  const cut = text.length > maxChars;
  const kept = cut ? text.slice(0, maxChars) : text;
  return `${kept.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, (char) => escapeForOneLine(char))}${cut ? '…' : ''}`;
}
