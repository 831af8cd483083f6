/**
 * The configured address of one API. It ends with /v1 and the client's paths are relative to it,
 * so the version segment is never doubled; a trailing slash is tolerated.
 */

export interface ApiBase {
  /** e.g. https://host:8443 */
  origin: string;
  /** The path of the address without a trailing slash, e.g. /v1 or /training/v1. */
  pathPrefix: string;
  /** host:port, for messages about connections. */
  hostAndPort: string;
}

export type ResolvedBase = { ok: true; base: ApiBase } | { ok: false; problem: string };

export function resolveApiBase(label: string, address: string | undefined): ResolvedBase {
  const trimmed = (address ?? '').trim();
  if (!trimmed) return { ok: false, problem: `the ${label} address is not set` };
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return { ok: false, problem: `the ${label} address "${trimmed}" is not a valid URL` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, problem: `the ${label} address "${trimmed}" must start with http:// or https://` };
  }
  return {
    ok: true,
    base: {
      origin: url.origin,
      pathPrefix: url.pathname.replace(/\/+$/, ''),
      hostAndPort: hostAndPort(url),
    },
  };
}

export function hostAndPort(url: URL): string {
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return `${url.hostname}:${port}`;
}

/** Builds `?a=1&b=x` from the defined values, or '' when there are none. */
export function queryString(query: Record<string, string | number | boolean | undefined> | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') params.append(name, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}
