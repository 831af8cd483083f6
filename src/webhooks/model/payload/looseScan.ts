import { createScanner } from '../../../platform/kit/strictJson';
import { JsonToken as Token } from './jsonTokens';

/**
 * Every string token of a document that is not valid JSON, telling keys from values as well as
 * its tokens allow. jsonc-parser's visitor stops reporting at the first "End of file expected"
 * (an extra `}`, a second document, text after the root), so the strings after such a break would
 * go unchecked; the scanner only reads tokens and goes on to the end, whatever comes before.
 *
 * A string is a key when a colon follows it, or when it stands where an object expects a key
 * (after `{` or a comma inside an object) even if the colon is missing.
 */
export function scanStringsLoosely(text: string, onString: (offset: number, length: number, isKey: boolean) => void): void {
  const scanner = createScanner(text, false);
  // Containers open around the current position: true for an object, false for an array.
  const objects: boolean[] = [];
  let previous: Token | undefined;
  // A string whose role the next token decides.
  let pending: { offset: number; length: number; keyPlace: boolean } | undefined;
  const settle = (next: Token | undefined) => {
    if (!pending) return;
    onString(pending.offset, pending.length, next === Token.Colon || pending.keyPlace);
    pending = undefined;
  };
  for (;;) {
    const token = scanner.scan() as number as Token;
    if (token === Token.LineBreak || token === Token.Whitespace || token === Token.LineComment || token === Token.BlockComment) continue;
    if (token === Token.EndOfFile) {
      settle(undefined);
      return;
    }
    settle(token);
    switch (token) {
      case Token.OpenBrace:
        objects.push(true);
        break;
      case Token.OpenBracket:
        objects.push(false);
        break;
      case Token.CloseBrace:
        if (objects[objects.length - 1] === true) objects.pop();
        break;
      case Token.CloseBracket:
        if (objects[objects.length - 1] === false) objects.pop();
        break;
      case Token.String: {
        const inObject = objects[objects.length - 1] === true;
        const keyPlace = inObject && (previous === Token.OpenBrace || previous === Token.Comma);
        pending = { offset: scanner.getTokenOffset(), length: scanner.getTokenLength(), keyPlace };
        break;
      }
      default:
        break;
    }
    previous = token;
  }
}
