/**
 * jsonc-parser's SyntaxKind values, for the scanners that walk payload text token by token. Its own
 * enum is a const enum in type declarations, which isolated modules cannot read.
 */
export const enum JsonToken {
  OpenBrace = 1,
  CloseBrace = 2,
  OpenBracket = 3,
  CloseBracket = 4,
  Comma = 5,
  Colon = 6,
  Null = 7,
  True = 8,
  False = 9,
  String = 10,
  Number = 11,
  LineComment = 12,
  BlockComment = 13,
  LineBreak = 14,
  Whitespace = 15,
  EndOfFile = 17,
}
