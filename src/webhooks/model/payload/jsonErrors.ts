import { printParseErrorCode, type ParseErrorCode } from '../../../platform/kit/strictJson';

const messages: Record<string, string> = {
  InvalidSymbol: 'Invalid symbol.',
  InvalidNumberFormat: 'Invalid number format.',
  PropertyNameExpected: 'Property name expected (a string in double quotes).',
  ValueExpected: 'Value expected.',
  ColonExpected: 'Colon expected.',
  CommaExpected: 'Comma expected.',
  CloseBraceExpected: 'Closing brace `}` expected.',
  CloseBracketExpected: 'Closing bracket `]` expected.',
  EndOfFileExpected: 'End of file expected: only one JSON value is allowed.',
  InvalidCommentToken: 'Comments are not permitted in JSON.',
  UnexpectedEndOfComment: 'Unexpected end of comment.',
  UnexpectedEndOfString: 'Unterminated string: a JSON string must close on the same line.',
  UnexpectedEndOfNumber: 'Unexpected end of number.',
  InvalidUnicode: 'Invalid unicode escape sequence.',
  InvalidEscapeCharacter: 'Invalid escape character in string.',
  InvalidCharacter: 'Invalid character in string: control characters must be escaped.',
};

/** A readable sentence for a jsonc-parser error code. */
export function describeParseError(code: ParseErrorCode): string {
  const name = printParseErrorCode(code);
  return messages[name] ?? `Invalid JSON (${name}).`;
}
