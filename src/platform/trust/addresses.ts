/**
 * Which API addresses RL Studio may send the user's key to, judged from the address alone (no
 * vscode import: tested in Node). Plain http:// is refused except to this machine, where nothing
 * crosses a network: the key would otherwise travel readable by anyone on the path.
 */
import { isLoopbackHost } from '../client/baseUrl';

export type AddressCheck = { ok: true; /** Without trailing slashes; '' when not set. */ url: string; /** scheme://host:port, '' when not set. */ origin: string } | { ok: false; problem: string };

export const httpOnlyForLoopback = 'http:// is allowed only for this machine (localhost, 127.0.0.1 or [::1]); use https://';

/** Checks one configured API address. '' (not set) is fine and stays ''. */
export function checkApiAddress(value: unknown): AddressCheck {
  if (value === undefined || value === null) return { ok: true, url: '', origin: '' };
  if (typeof value !== 'string') return { ok: false, problem: 'it is not text' };
  const trimmed = value.trim().replace(/\/+$/, '');
  if (trimmed === '') return { ok: true, url: '', origin: '' };
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return { ok: false, problem: 'it is not a valid address' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, problem: 'it must start with https://' };
  // The parser has already turned other spellings of an address (0x7f.1, 2130706433) into dotted form.
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) return { ok: false, problem: httpOnlyForLoopback };
  if (url.username || url.password) return { ok: false, problem: 'it must not hold a user name or password' };
  return { ok: true, url: trimmed, origin: originOf(url) };
}

/** scheme://host:port with the port always written, so https://h and https://h:443 are one origin. */
export function originOf(url: URL): string {
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return `${url.protocol}//${url.hostname}:${port}`;
}

/** The origin as a person reads it: the default port left out. */
export function shownOrigin(origin: string): string {
  return origin.replace(/^(https:\/\/.*):443$/, '$1').replace(/^(http:\/\/.*):80$/, '$1');
}
