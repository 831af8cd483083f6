const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** The largest multiple of the alphabet's size that fits in a byte: bytes from it on are skipped. */
const unbiasedLimit = 256 - (256 % alphabet.length);

/**
 * A fresh nonce for one load of a webview document, for its `script-src 'nonce-…'` policy and its
 * script tag: letters and digits only, so it needs no escaping in either. The bytes come from Web
 * Crypto, a global of Node and the extension host, so no module is loaded for it, least of all at
 * activation.
 */
export function createNonce(length = 32): string {
  let nonce = '';
  while (nonce.length < length) {
    for (const byte of globalThis.crypto.getRandomValues(new Uint8Array(length))) {
      // Taking every byte modulo 62 would make the first characters of the alphabet likelier.
      if (byte < unbiasedLimit && nonce.length < length) nonce += alphabet[byte % alphabet.length];
    }
  }
  return nonce;
}
