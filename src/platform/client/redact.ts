/**
 * Removes secrets from text that is about to be shown, logged or saved. It is safe to apply last,
 * after any truncation, and to apply twice:
 *
 * - Any 8 characters in a row of a secret are enough to mask a place, so a key cut at either end
 *   by a length limit is still found. The text is searched through a decoded view (`%XX`, `\/`,
 *   `\"`, `\uXXXX`, runs of backslashes), so URL-encoded and JSON-escaped echoes are found too, and
 *   the secret's base64 forms (alone or inside `user:secret`, at each of the three alignments) are
 *   searched for as well. The masked place grows to the whole key-like word around it. A secret of
 *   6 or 7 characters is masked where it appears whole; a shorter one only as an auth token.
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
  /**
   * One flag per value of the low 16 bits of the pieces' rolling hashes: most positions of a text
   * are ruled out by one array read, without a set lookup or a string.
   */
  hashFilter: Uint8Array;
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
  const plan: Plan = { pieces: new Set(), hashFilter: new Uint8Array(1 << 16), whole: [], short: new Set() };
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
  for (const piece of plan.pieces) plan.hashFilter[hashAt(piece, 0) & 0xffff] = 1;
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
 * Escapes are rare, so the view keeps only where each one is: the view position of its character,
 * where it starts in the text and how long it is there. Absent when there is none.
 */
interface View {
  text: string;
  escapes?: { viewAt: number[]; textAt: number[]; length: number[] };
}

const escapeStart = /[%\\]/g;

function decodedView(text: string): View {
  escapeStart.lastIndex = 0;
  if (!escapeStart.test(text)) return { text };
  const escapes = { viewAt: [] as number[], textAt: [] as number[], length: [] as number[] };
  const parts: string[] = [];
  let copied = 0;
  let viewLength = 0;
  escapeStart.lastIndex = 0;
  for (let found = escapeStart.exec(text); found; found = escapeStart.exec(text)) {
    const position = found.index;
    if (position < copied) continue;
    const { code, next } = escapeAt(text, position);
    if (next - position <= 1) continue;
    parts.push(text.slice(copied, position), String.fromCharCode(code));
    viewLength += position - copied;
    escapes.viewAt.push(viewLength);
    escapes.textAt.push(position);
    escapes.length.push(next - position);
    viewLength += 1;
    copied = next;
    escapeStart.lastIndex = next;
  }
  if (escapes.viewAt.length === 0) return { text };
  parts.push(text.slice(copied));
  return { text: parts.join(''), escapes };
}

const controlEscapes = 'nrtbf';
const controlCodes = [0x0a, 0x0d, 0x09, 0x08, 0x0c];

/** The character an escape at `position` stands for, and where the escape ends. */
function escapeAt(text: string, position: number): { code: number; next: number } {
  if (text.charCodeAt(position) === 0x25) {
    // %XX, and %25XX as left by encoding twice.
    let at = position + 1;
    while (text.startsWith('25', at) && hexAt(text, at + 2, 2) >= 0) at += 2;
    const value = hexAt(text, at, 2);
    return value >= 0 ? { code: value, next: at + 2 } : { code: 0x25, next: position + 1 };
  }
  // A run of backslashes (JSON escaped once or more) and what it escapes.
  let at = position;
  while (at < text.length && text.charCodeAt(at) === 0x5c) at++;
  const escaped = at < text.length ? text.charCodeAt(at) : -1;
  const unicode = escaped === 0x75 ? hexAt(text, at + 1, 4) : -1;
  if (unicode >= 0) return { code: unicode, next: at + 5 };
  if (escaped === 0x2f || escaped === 0x22 || escaped === 0x27) return { code: escaped, next: at + 1 };
  // `\n`, `\t`…: one unit, so a masked place never takes the letter and leaves the backslash.
  const control = escaped >= 0 ? controlEscapes.indexOf(String.fromCharCode(escaped)) : -1;
  if (control >= 0) return { code: controlCodes[control], next: at + 1 };
  return { code: 0x5c, next: at };
}

/** Where view position `index` (up to the view's length) starts in the text. */
function textPosition(view: View, index: number): number {
  const escapes = view.escapes;
  if (!escapes) return index;
  // The last escape at or before the index, by binary search.
  let low = 0;
  let high = escapes.viewAt.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (escapes.viewAt[middle] <= index) {
      found = middle;
      low = middle + 1;
    } else high = middle - 1;
  }
  if (found < 0) return index;
  if (escapes.viewAt[found] === index) return escapes.textAt[found];
  return escapes.textAt[found] + escapes.length[found] + (index - escapes.viewAt[found] - 1);
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
    const filter = plan.hashFilter;
    const last = seen.length - pieceLength;
    let hash = hashAt(seen, 0);
    for (let start = 0; start <= last; start++) {
      if (filter[hash & 0xffff] === 1 && plan.pieces.has(seen.slice(start, start + pieceLength))) addSpan(start, start + pieceLength);
      if (start < last) {
        const dropped = (hash - Math.imul(seen.charCodeAt(start), hashBaseTop)) | 0;
        hash = (Math.imul(dropped, hashBase) + seen.charCodeAt(start + pieceLength)) | 0;
      }
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
    const from = textPosition(view, grown[index]);
    const to = textPosition(view, grown[index + 1]);
    parts.push(text.slice(copied, from), redactedMark);
    copied = to;
  }
  parts.push(text.slice(copied));
  return parts.join('');
}

/** Letters, digits, `-`, `_`, `~`, `+`: what keys are made of, and what ends at spaces, quotes and punctuation. */
function isKeyCharacter(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || code === 0x2d || code === 0x5f || code === 0x7e || code === 0x2b;
}

// ---------------------------------------------------------------------------------------------
// Masking credentials by their syntax

/**
 * `Authorization: Bearer x`, `"x-api-key": "x"`, `apiKey=x`: the header or field names a credential.
 * A quote around the separator is taken only as a closing and an opening pair (a JSON key and its
 * value), so a match never starts inside one JSON string and ends in the structure after it.
 */
const credentialField =
  /\b(proxy-authorization|authorization|x-api-key|api[_-]?key|x-auth-token|x-access-token|access[_-]?token|client[_-]?secret)("[ \t]*[:=][ \t]*"|'[ \t]*[:=][ \t]*'|[ \t]*[:=][ \t]*)((?:bearer|basic|token|digest|apikey|negotiate)[ \t]+)?([^\s"',;&\\]+)/gi;
/**
 * Cookies as a header: everything after the name, to the end of the line or string. Values never
 * take a backslash, here and below: in JSON text it may escape the quote that ends the string.
 */
const cookieField = /\b(set-cookie|cookie)("[ \t]*:[ \t]*"|'[ \t]*:[ \t]*'|[ \t]*:[ \t]*)([^\r\n"'\\]+)/gi;
/** An auth scheme in free text and the token after it. */
const schemeToken = /\b(bearer|basic|token|digest|apikey)(\s+)([A-Za-z0-9._~+/=-]+)/gi;
/** `scheme://user:password@host`: the whole userinfo goes. */
const urlUserinfo = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/?#@"'<>\\]+)@/gi;
/** Credentials passed as query parameters. */
const credentialParameter = /([?&;](?:access_token|refresh_token|id_token|api_key|apikey|api-key|token|key|secret|password|client_secret|sig|signature)=)([^&#\s"'<>\\]+)/gi;

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
