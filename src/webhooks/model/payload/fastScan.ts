import { createScanner } from '../../../platform/kit/strictJson';
import { JsonToken as Token } from './jsonTokens';
import { ScanState as State } from './scanState';

/**
 * The common case, a valid JSON document, walked with jsonc-parser's scanner and a small state
 * machine instead of its visitor (which allocates a path closure per token): on a 1 MB payload
 * this halves the analysis time. It reports every string token, telling keys from values, and
 * returns false at the first thing that is not valid JSON; the caller then falls back to the full
 * visitor, which explains the error.
 */
export function scanValidJson(text: string, onString: (offset: number, length: number, isKey: boolean) => void): boolean {
  const scanner = createScanner(text, false);
  // Containers open around the current position: true for an object, false for an array.
  const objects: boolean[] = [];
  let state: State = State.Value;
  for (;;) {
    const token = scanner.scan() as number as Token;
    if ((scanner.getTokenError() as number) !== 0) return false;
    switch (token) {
      case Token.LineBreak:
      case Token.Whitespace:
        continue;
      case Token.EndOfFile:
        return state === State.AfterValue && objects.length === 0;
      case Token.OpenBrace:
        if (state !== State.Value && state !== State.ValueOrClose) return false;
        objects.push(true);
        state = State.KeyOrClose;
        continue;
      case Token.OpenBracket:
        if (state !== State.Value && state !== State.ValueOrClose) return false;
        objects.push(false);
        state = State.ValueOrClose;
        continue;
      case Token.CloseBrace:
        if ((state !== State.AfterValue && state !== State.KeyOrClose) || objects.pop() !== true) return false;
        state = State.AfterValue;
        continue;
      case Token.CloseBracket:
        if ((state !== State.AfterValue && state !== State.ValueOrClose) || objects.pop() !== false) return false;
        state = State.AfterValue;
        continue;
      case Token.Comma:
        if (state !== State.AfterValue || objects.length === 0) return false;
        state = objects[objects.length - 1] ? State.Key : State.Value;
        continue;
      case Token.Colon:
        if (state !== State.Colon) return false;
        state = State.Value;
        continue;
      case Token.String:
        if (state === State.Key || state === State.KeyOrClose) {
          onString(scanner.getTokenOffset(), scanner.getTokenLength(), true);
          state = State.Colon;
          continue;
        }
        if (state !== State.Value && state !== State.ValueOrClose) return false;
        onString(scanner.getTokenOffset(), scanner.getTokenLength(), false);
        state = State.AfterValue;
        continue;
      case Token.Null:
      case Token.True:
      case Token.False:
      case Token.Number:
        if (state !== State.Value && state !== State.ValueOrClose) return false;
        state = State.AfterValue;
        continue;
      default:
        // Comments, unknown symbols.
        return false;
    }
  }
}
