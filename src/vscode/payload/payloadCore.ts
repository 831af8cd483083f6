import type * as Payload from '../../payload';

export type PayloadCore = typeof Payload;

let loaded: PayloadCore | undefined;

/**
 * The payload language core and jsonc-parser, loaded the first time a payload is worked with:
 * activation must not pay for a parser most windows never use. The bundler keeps a module that is
 * only `require`d inside a function uninitialised until that call.
 */
export function payloadCore(): PayloadCore {
  loaded ??= require('../../payload') as PayloadCore;
  return loaded;
}
