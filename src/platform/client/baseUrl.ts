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
  // Every call carries the API key: over plain http it would cross the network readable by anyone
  // on the way. Plain http is for a server on this computer (a local emulator or a tunnel) only.
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    return { ok: false, problem: `the ${label} address "${trimmed}" uses http:// for a host other than this computer; use https:// so your key is sent encrypted` };
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

/**
 * localhost, 127.0.0.0/8 and [::1], as the URL parser normalises them (so "127.1" or "0x7f.0.0.1"
 * arrive here as 127.0.0.1). Other names are not trusted to resolve to this computer.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === 'localhost' || host === '[::1]') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
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
