import type * as Payload from '../../payload';

export type PayloadCore = typeof Payload;

let loaded: PayloadCore | undefined;

/**
 * The payload language core and jsonc-parser, loaded the first time a payload is worked with:
 * neither activation nor the Webhooks view pays for a parser most windows never use. It is a bundle
 * of its own (dist/payloadCore.js, see esbuild.mjs), required here on the first call.
 */
export function payloadCore(): PayloadCore {
  loaded ??= require('../../payload') as PayloadCore;
  return loaded;
}
