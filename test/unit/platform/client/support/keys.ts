/**
 * Keys, surrounding text and encodings for the redaction properties, written independently of the
 * redaction itself: the decoders here are plain and lenient, and the base64 pieces come from Buffer.
 */
import fc from 'fast-check';

const keyCharacters = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~+/='];
/** API keys as platforms issue them: 16 to 64 characters of letters, digits and a few symbols. */
export const keyArbitrary = fc.string({ unit: fc.constantFrom(...keyCharacters), minLength: 16, maxLength: 64 });

/** Text around a key in a message: words, spaces and JSON punctuation. */
export const prose = fc.string({ unit: fc.constantFrom(...'abcdefghij klmnop qrst uvwxyz ,.:;"{}[]0123'), maxLength: 80 });

const mark = '[redacted]';

/** The first 8 characters in a row of `secret` still present in `text`, with the marks as breaks. */
export function survivingPiece(text: string, secret: string): string | undefined {
  const broken = text.split(mark).join('\u0000');
  for (let start = 0; start + 8 <= secret.length; start++) {
    const piece = secret.slice(start, start + 8);
    if (broken.includes(piece)) return piece;
  }
  return undefined;
}

export interface Encoding {
  name: string;
  /** The key as it would be echoed; `seed` picks the variant (which characters, which case). */
  encode(key: string, seed: number): string;
  /** Undoes the encoding leniently, so a piece left encoded is found too. */
  decode(text: string): string;
  /** What must not survive, when it is not the key itself (the base64 pieces). */
  secretForms?(key: string): string[];
}

function random(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const hex = (code: number, digits: number, upper: boolean): string => {
  const text = code.toString(16).padStart(digits, '0');
  return upper ? text.toUpperCase() : text;
};

const percentDecode = (text: string): string => text.replace(/%(?:25)*([0-9a-f]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
const backslashDecode = (text: string): string => text.replace(/\\+u([0-9a-f]{4})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))).replace(/\\+(.)/g, '$1');

/** The base64 characters that depend on the key alone, after 0 to 2 bytes of something else. */
export function base64Pieces(key: string, urlSafe: boolean): string[] {
  const bytes = Buffer.from(key, 'utf8');
  const forms: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset, 0x41), bytes]).toString(urlSafe ? 'base64url' : 'base64');
    forms.push(encoded.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6)));
  }
  return forms;
}

export const encodings: Encoding[] = [
  {
    name: 'URL-encoded (some or all characters, either hex case)',
    encode: (key, seed) => {
      const next = random(seed);
      const upper = next() < 0.5;
      return [...key].map((c) => (next() < 0.6 ? `%${hex(c.charCodeAt(0), 2, upper)}` : c)).join('');
    },
    decode: percentDecode,
  },
  {
    name: 'URL-encoded twice',
    encode: (key) => encodeURIComponent(encodeURIComponent(key)),
    decode: (text) => percentDecode(percentDecode(text)),
  },
  {
    name: 'JSON-escaped with \\/',
    encode: (key) => JSON.stringify(key).slice(1, -1).replace(/\//g, '\\/'),
    decode: backslashDecode,
  },
  {
    name: '\\u-escaped (some or all characters)',
    encode: (key, seed) => {
      const next = random(seed);
      const all = next() < 0.3;
      return [...key].map((c) => (all || next() < 0.5 ? `\\u${hex(c.charCodeAt(0), 4, next() < 0.5)}` : c)).join('');
    },
    decode: backslashDecode,
  },
  {
    name: 'JSON-escaped twice (a JSON document inside a JSON string)',
    encode: (key) => JSON.stringify(JSON.stringify({ key: key.replace(/\//g, '\\/') })).slice(1, -1),
    decode: (text) => backslashDecode(backslashDecode(text)),
  },
  {
    name: 'base64 of user:key (Basic auth) at any alignment',
    encode: (key, seed) => Buffer.from(`${'user'.slice(0, seed % 5)}:${key}`, 'utf8').toString('base64'),
    decode: (text) => text,
    secretForms: (key) => base64Pieces(key, false),
  },
  {
    name: 'base64url of the key after 0 to 2 bytes',
    encode: (key, seed) => Buffer.from(`${'ab'.slice(0, seed % 3)}${key}`, 'utf8').toString('base64url'),
    decode: (text) => text,
    secretForms: (key) => base64Pieces(key, true),
  },
];

/** The first surviving piece of the key, or of its encoded forms for the encodings that have them. */
export function pieceOfKeyIn(text: string, key: string, encoding: Encoding): string | undefined {
  const forms = encoding.secretForms ? encoding.secretForms(key) : [key];
  for (const form of forms) {
    const found = survivingPiece(text, form);
    if (found !== undefined) return found;
  }
  return undefined;
}
