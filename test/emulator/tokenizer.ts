/**
 * The emulator's tokenizer: a token is a run of letters/digits or a single other character, each
 * carrying the whitespace before it. Joining the tokens gives back the text exactly, so streamed
 * deltas and usage counts always agree with the content.
 */
const TOKEN = /\s*[\p{L}\p{N}_]+|\s*[^\s\p{L}\p{N}_]|\s+$/gu;

export function tokenize(text: string): string[] {
  return text.match(TOKEN) ?? [];
}

export function countTokens(text: string): number {
  return tokenize(text).length;
}
