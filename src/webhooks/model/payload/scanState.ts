/**
 * Where a JSON scanner is in the grammar: what may come next. Shared by the scanners that read a
 * payload in one pass without building tokens (fastScan, plainScan).
 */
export const enum ScanState {
  /** A value must come (document start, after a colon, after a comma in an array). */
  Value,
  /** Just after `[`: a value or `]`. */
  ValueOrClose,
  /** Just after `{`: a key or `}`. */
  KeyOrClose,
  /** After a comma in an object. */
  Key,
  Colon,
  /** A value ended: a comma, a closing bracket, or the end of the document. */
  AfterValue,
}
