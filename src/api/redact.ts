/**
 * Removes secrets from text that is about to be shown, logged or saved. It is safe to apply last,
 * after any truncation, and to apply twice:
 *
 * - Any 8 characters in a row of a secret are enough to mask a place, so a key cut at either end
 *   by a length limit is still found. The text is searched through a decoded view (`%XX`, `\/`,
 *   `\"`, `\uXXXX`, runs of backslashes), so URL-encoded and JSON-escaped echoes are found too, and
 *   the secret's base64 forms (alone or inside `user:secret`, at each of the three alignments) are
 *   searched for as well. The masked place grows to the whole key-like word around it.
 * - Credentials in their usual syntax are masked whatever their value: the token after an auth
 *   scheme (`Bearer`, `Basic`, `token`, in any case), the values of Authorization, X-Api-Key and
 *   cookie headers, the userinfo of a URL and credential query parameters.
 *
 * The cost is linear in the text: a rolling hash over the decoded view is looked up in a set of the
 * secrets' 8-character pieces, never a search per secret per position.
 */
export const redactedMark = '[redacted]';

/** How many characters of a secret in a row identify it. */
const pieceLength = 8;
/**
 * Secrets shorter than this are not searched for in free text: replacing them would mangle
 * ordinary words ("k" inside "chunks"). They are masked where they stand as the credential after an
 * auth scheme or header name, which the credential syntax rules cover.
 */
const minimumSecretLength = 6;

export function redactSecrets(text: string, secrets: readonly string[]): string {
  if (typeof text !== 'string' || text.length === 0) return text;
  const plan = planFor(secrets);
  const masked = plan.pieces.size > 0 || plan.whole.length > 0 ? maskSecretValues(text, plan) : text;
  return maskCredentialSyntax(masked, plan.short);
}

// ---------------------------------------------------------------------------------------------
// What to look for

interface Plan {
  /** Every 8-character piece of every searched form of every secret. */
  pieces: Set<string>;
  /** Rolling hashes of `pieces`, checked first so most positions cost no string. */
  hashes: Set<number>;
  /** Forms of 6 or 7 characters, matched whole. */
  whole: string[];
  /** Secrets under the minimum length: masked only as the token after an auth scheme. */
  short: Set<string>;
}

const plans = new Map<string, Plan>();
/** The log redacts every line with the same few secrets: keep their plans, but only a few. */
const keptPlans = 16;

function planFor(secrets: readonly string[]): Plan {
  const usable = secrets.filter((secret): secret is string => typeof secret === 'string' && secret.length > 0);
  const cacheKey = usable.join('\u0000');
  const cached = plans.get(cacheKey);
  if (cached) return cached;
  const plan: Plan = { pieces: new Set(), hashes: new Set(), whole: [], short: new Set() };
  for (const secret of usable) {
    if (secret.length < minimumSecretLength) {
      plan.short.add(secret);
      continue;
    }
    for (const form of searchedForms(secret)) {
      if (form.length < minimumSecretLength) continue;
      if (form.length < pieceLength) {
        if (!plan.whole.includes(form)) plan.whole.push(form);
        continue;
      }
      for (let start = 0; start + pieceLength <= form.length; start++) plan.pieces.add(form.slice(start, start + pieceLength));
    }
  }
  for (const piece of plan.pieces) plan.hashes.add(hashAt(piece, 0));
  if (plans.size >= keptPlans) plans.clear();
  plans.set(cacheKey, plan);
  return plan;
}

/** The secret as written, as the decoded view reads it, and its base64 forms. */
function searchedForms(secret: string): string[] {
  const forms = new Set<string>([secret, decodedView(secret).text]);
  const bytes = new TextEncoder().encode(secret);
  for (const core of base64Cores(bytes)) {
    forms.add(core);
    forms.add(core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return [...forms];
}

const base64Alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/**
 * The base64 characters that depend on the secret's bytes alone, for the secret starting at each
 * of the three byte offsets within a 3-byte group: whatever precedes it (`user:` in Basic auth),
 * these characters appear in the encoding.
 */
function base64Cores(bytes: Uint8Array): string[] {
  const cores: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    const padded = new Uint8Array(offset + bytes.length);
    padded.set(bytes, offset);
    const encoded = base64(padded);
    const first = Math.ceil((8 * offset) / 6);
    const end = Math.floor((8 * (offset + bytes.length)) / 6);
    if (end > first) cores.push(encoded.slice(first, end));
  }
  return cores;
}

function base64(bytes: Uint8Array): string {
  let out = '';
  for (let index = 0; index < bytes.length; index += 3) {
    const a = bytes[index];
    const b = index + 1 < bytes.length ? bytes[index + 1] : 0;
    const c = index + 2 < bytes.length ? bytes[index + 2] : 0;
    const triple = (a << 16) | (b << 8) | c;
    out += base64Alphabet[(triple >> 18) & 63] + base64Alphabet[(triple >> 12) & 63];
    out += index + 1 < bytes.length ? base64Alphabet[(triple >> 6) & 63] : '=';
    out += index + 2 < bytes.length ? base64Alphabet[triple & 63] : '=';
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The decoded view

/**
 * The text with its escapes decoded, one view character per escape sequence or plain character.
 * `starts[i]` is where view character i begins in the text; `starts[view length]` is the text's
 * length. Absent when the text has nothing to decode (the view is the text).
 */
interface View {
  text: string;
  starts?: Int32Array;
}

function decodedView(text: string): View {
  if (text.indexOf('%') < 0 && text.indexOf('\\') < 0) return { text };
  const length = text.length;
  const codes = new Uint16Array(length);
  const starts = new Int32Array(length + 1);
  let count = 0;
  let position = 0;
  while (position < length) {
    const code = text.charCodeAt(position);
    let decoded = code;
    let next = position + 1;
    if (code === 0x25) {
      // %XX, and %25XX as left by encoding twice.
      let at = position + 1;
      while (text.startsWith('25', at) && hexAt(text, at + 2, 2) >= 0) at += 2;
      const value = hexAt(text, at, 2);
      if (value >= 0) {
        decoded = value;
        next = at + 2;
      }
    } else if (code === 0x5c) {
      // A run of backslashes (JSON escaped once or more) and what it escapes.
      let at = position;
      while (at < length && text.charCodeAt(at) === 0x5c) at++;
      const escaped = at < length ? text.charCodeAt(at) : -1;
      const unicode = escaped === 0x75 ? hexAt(text, at + 1, 4) : -1;
      if (unicode >= 0) {
        decoded = unicode;
        next = at + 5;
      } else if (escaped === 0x2f || escaped === 0x22 || escaped === 0x27) {
        decoded = escaped;
        next = at + 1;
      } else {
        next = at;
      }
    }
    codes[count] = decoded;
    starts[count] = position;
    count++;
    position = next;
  }
  starts[count] = length;
  return { text: fromCodes(codes, count), starts: starts.subarray(0, count + 1) };
}

function hexAt(text: string, at: number, digits: number): number {
  if (at + digits > text.length) return -1;
  let value = 0;
  for (let index = at; index < at + digits; index++) {
    const code = text.charCodeAt(index);
    const digit = code >= 0x30 && code <= 0x39 ? code - 0x30 : code >= 0x41 && code <= 0x46 ? code - 0x37 : code >= 0x61 && code <= 0x66 ? code - 0x57 : -1;
    if (digit < 0) return -1;
    value = value * 16 + digit;
  }
  return value;
}

function fromCodes(codes: Uint16Array, count: number): string {
  const parts: string[] = [];
  // In slices: one call with millions of arguments would overflow the stack.
  for (let start = 0; start < count; start += 8192) parts.push(String.fromCharCode(...codes.subarray(start, Math.min(count, start + 8192))));
  return parts.join('');
}

// ---------------------------------------------------------------------------------------------
// Masking secret values

const hashBase = 31;
const hashBaseTop = (() => {
  let power = 1;
  for (let index = 1; index < pieceLength; index++) power = Math.imul(power, hashBase);
  return power;
})();

function hashAt(text: string, start: number): number {
  let hash = 0;
  for (let index = start; index < start + pieceLength; index++) hash = (Math.imul(hash, hashBase) + text.charCodeAt(index)) | 0;
  return hash;
}

function maskSecretValues(text: string, plan: Plan): string {
  const view = decodedView(text);
  const seen = view.text;
  const spans: number[] = [];
  const addSpan = (from: number, to: number): void => {
    const last = spans.length - 1;
    if (last > 0 && from <= spans[last]) spans[last] = Math.max(spans[last], to);
    else spans.push(from, to);
  };

  if (plan.pieces.size > 0 && seen.length >= pieceLength) {
    let hash = hashAt(seen, 0);
    for (let start = 0; ; start++) {
      if (plan.hashes.has(hash) && plan.pieces.has(seen.slice(start, start + pieceLength))) addSpan(start, start + pieceLength);
      const end = start + pieceLength;
      if (end >= seen.length) break;
      hash = (Math.imul(hash - Math.imul(seen.charCodeAt(start), hashBaseTop), hashBase) + seen.charCodeAt(end)) | 0;
    }
  }
  if (plan.whole.length > 0) {
    const found: number[] = [];
    for (const form of plan.whole) {
      for (let at = seen.indexOf(form); at >= 0; at = seen.indexOf(form, at + 1)) found.push(at, at + form.length);
    }
    const pairs: Array<[number, number]> = [];
    for (let index = 0; index < spans.length; index += 2) pairs.push([spans[index], spans[index + 1]]);
    for (let index = 0; index < found.length; index += 2) pairs.push([found[index], found[index + 1]]);
    pairs.sort((a, b) => a[0] - b[0]);
    spans.length = 0;
    for (const [from, to] of pairs) addSpan(from, to);
  }
  if (spans.length === 0) return text;

  // Grow each place to the key-like word around it: the few characters of a key next to a cut or
  // next to an escape the view could not read are masked with the rest.
  const grown: number[] = [];
  for (let index = 0; index < spans.length; index += 2) {
    let from = spans[index];
    let to = spans[index + 1];
    while (from > 0 && isKeyCharacter(seen.charCodeAt(from - 1))) from--;
    while (to < seen.length && isKeyCharacter(seen.charCodeAt(to))) to++;
    const last = grown.length - 1;
    if (last > 0 && from <= grown[last]) grown[last] = Math.max(grown[last], to);
    else grown.push(from, to);
  }

  const parts: string[] = [];
  let copied = 0;
  for (let index = 0; index < grown.length; index += 2) {
    const from = view.starts ? view.starts[grown[index]] : grown[index];
    const to = view.starts ? view.starts[grown[index + 1]] : grown[index + 1];
    parts.push(text.slice(copied, from), redactedMark);
    copied = to;
  }
  parts.push(text.slice(copied));
  return parts.join('');
}

/** Letters, digits, `-`, `_`, `~`, `+`: what keys are made of, and what ends at spaces, quotes and punctuation. */
function isKeyCharacter(code: number): boolean {
  return (
    (code >= 0x30 && code <= 0x39) ||
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x61 && code <= 0x7a) ||
    code === 0x2d ||
    code === 0x5f ||
    code === 0x7e ||
    code === 0x2b
  );
}

// ---------------------------------------------------------------------------------------------
// Masking credentials by their syntax

/** `Authorization: Bearer x`, `"x-api-key": "x"`, `apiKey=x`: the header or field names a credential. */
const credentialField =
  /\b(proxy-authorization|authorization|x-api-key|api[_-]?key|x-auth-token|x-access-token|access[_-]?token|client[_-]?secret)(["']?[ \t]*[:=][ \t]*["']?)((?:bearer|basic|token|digest|apikey|negotiate)[ \t]+)?([^\s"',;&]+)/gi;
/** Cookies as a header: everything after the name, to the end of the line or string. */
const cookieField = /\b(set-cookie|cookie)(["']?[ \t]*:[ \t]*["']?)([^\r\n"']+)/gi;
/** An auth scheme in free text and the token after it. */
const schemeToken = /\b(bearer|basic|token|digest|apikey)(\s+)([A-Za-z0-9._~+/=-]+)/gi;
/** `scheme://user:password@host`: the whole userinfo goes. */
const urlUserinfo = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/?#@"'<>]+)@/gi;
/** Credentials passed as query parameters. */
const credentialParameter = /([?&;](?:access_token|refresh_token|id_token|api_key|apikey|api-key|token|key|secret|password|client_secret|sig|signature)=)([^&#\s"'<>]+)/gi;

function maskCredentialSyntax(text: string, shortSecrets: ReadonlySet<string>): string {
  return text
    .replace(credentialField, (_match, name: string, separator: string, scheme: string | undefined) => `${name}${separator}${scheme ?? ''}${redactedMark}`)
    .replace(cookieField, (_match, name: string, separator: string) => `${name}${separator}${redactedMark}`)
    .replace(schemeToken, (match, scheme: string, space: string, token: string) =>
      shortSecrets.has(token) || looksLikeCredential(scheme.toLowerCase(), token) ? `${scheme}${space}${redactedMark}` : match,
    )
    .replace(urlUserinfo, (_match, scheme: string) => `${scheme}${redactedMark}@`)
    .replace(credentialParameter, (_match, name: string) => `${name}${redactedMark}`);
}

/**
 * After `Bearer` anything but a plain lowercase word ("Bearer token") is taken for a credential.
 * After the other schemes, which are ordinary words too ("basic", "token"), only something that
 * looks generated: 8 characters or more with a digit, a capital after the first letter, or `+/=`.
 */
function looksLikeCredential(scheme: string, token: string): boolean {
  if (scheme === 'bearer') return !/^[a-z]+$/.test(token);
  return token.length >= pieceLength && (/\d/.test(token) || /[A-Z]/.test(token.slice(1)) || /[+/=]/.test(token));
}
