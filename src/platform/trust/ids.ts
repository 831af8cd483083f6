/**
 * Checks an id typed by the user (or given to a command) before it becomes a segment of a request
 * path: `..` (however it is spelled: `a/../b`, `%2e%2e`) would point the request, and the API key
 * sent with it, at another endpoint of the server. No vscode import: tested in Node.
 */
import { hasDotSegment } from '../kit/dotSegments';

/** The reason an id cannot be used, in words for an input box, or undefined when it is fine. */
export function idProblem(value: string, what: string): string | undefined {
  const id = value.trim();
  if (id === '') return `Enter the ${what} id`;
  if (/\s/.test(id)) return 'An id has no spaces';
  if (hasDotSegment(id)) return 'An id cannot be "." or ".." or hold them between slashes: such an id would name another address on the server';
  if (/[/\\?#%]/.test(id)) return 'An id is a single name: it cannot hold /, \\, ?, # or %';
  if (/[\u0000-\u001f\u007f]/.test(id)) return 'An id cannot hold control characters';
  return undefined;
}

/** Throws the same message for an id given by a caller instead of typed. */
export function checkedId(value: string, what: string): string {
  const problem = idProblem(value, what);
  if (problem) throw new Error(`"${value}" cannot be used as a ${what} id. ${problem}.`);
  return value.trim();
}
