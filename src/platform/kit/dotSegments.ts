/**
 * Whether text holds a `.` or `..` segment, however it is spelled (`a/../b`, `%2e%2e`, `%252e…`):
 * such a segment in a request path would point the request, and the key sent with it, at another
 * endpoint of the server. Percent-decoding is tried a few rounds so double-encoded forms are seen.
 */
const decodeRounds = 3;

export function hasDotSegment(text: string, separators: RegExp = /[/\\]/): boolean {
  let current = text;
  for (let round = 0; round <= decodeRounds; round++) {
    if (current.split(separators).some((segment) => segment === '.' || segment === '..')) return true;
    let decoded: string;
    try {
      decoded = decodeURIComponent(current);
    } catch {
      return false;
    }
    if (decoded === current) return false;
    current = decoded;
  }
  return false;
}
