/**
 * Ids that go into a request path (model and job ids).
 *
 * The platform's ids are opaque strings, but an id reaches the client from a server answer, a
 * setting, a file or a command argument. `..`, `a/../b` or `%2e%2e` would change which resource a
 * request names once the path is normalised (by a proxy, the server's router, or a server that
 * decodes twice): a DELETE aimed at one model could land on another, or on another route entirely.
 * Such ids are refused before any request is sent; every other id is sent percent-encoded as
 * exactly one path segment.
 */

export const maxPathIdLength = 512;

/** Why `id` cannot be one path segment, or undefined when it can. */
export function pathIdProblem(id: unknown): string | undefined {
  if (typeof id !== 'string') return 'it is not text';
  if (id.length === 0) return 'it is empty';
  if (id.length > maxPathIdLength) return `it is longer than ${maxPathIdLength} characters`;
  if (id === '.' || id === '..') return 'it is a dot segment';
  // '%' is refused whole rather than decoded and checked: an id never needs it, and whether a
  // server decodes once or twice is beyond the client's knowledge.
  if (/[/\\?#%]/.test(id)) return 'it contains /, \\, ?, # or %';
  if (/[\u0000-\u001f\u007f-\u009f]/.test(id)) return 'it contains control characters';
  return undefined;
}

export type FilledPath = { ok: true; path: string } | { ok: false; problem: string };

/**
 * Replaces each `{name}` of the template with its id, percent-encoded. A template naming an id
 * that was not given is a programming error and is refused like a bad id.
 */
export function fillPath(template: string, ids: Record<string, string> | undefined): FilledPath {
  // Most calls name no id ('/models'): no pattern to run.
  if (!template.includes('{')) return { ok: true, path: template };
  let problem: string | undefined;
  const path = template.replace(/\{(\w+)\}/g, (_whole, name: string) => {
    const id = ids?.[name];
    const reason = pathIdProblem(id);
    if (reason !== undefined) {
      problem ??= `the ${describeName(name)} ${quote(id)} cannot be used in a request address (${reason}); nothing was sent`;
      return '';
    }
    return encodeURIComponent(id as string);
  });
  return problem === undefined ? { ok: true, path } : { ok: false, problem };
}

/** modelId → "model id". */
function describeName(name: string): string {
  return name
    .replace(/Id$/, ' id')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
}

/** The id as a short, printable quotation: control characters escaped, long ids cut. */
function quote(id: unknown): string {
  if (typeof id !== 'string') return String(id);
  const shown = id.length > 60 ? `${id.slice(0, 59)}…` : id;
  return JSON.stringify(shown).replace(/[\u007f-\u009f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
