/**
 * undici is loaded on the first request, not when this module is imported: activating the
 * extension must stay cheap, and a window often opens no connection until a view is shown.
 */
import type * as Undici from 'undici';

export type UndiciModule = typeof Undici;

let loaded: UndiciModule | undefined;

export function loadUndici(): UndiciModule {
  // A plain require inside a function keeps both Node and the bundler from loading it up front.
  loaded ??= require('undici') as UndiciModule;
  return loaded;
}
