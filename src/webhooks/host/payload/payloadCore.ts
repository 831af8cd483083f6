import type * as Payload from '../../model/payload';
import { onFirstUse } from '../../../platform/host/lazy/onFirstUse';

export type PayloadCore = typeof Payload;

/**
 * The payload language core, set up the first time a payload is worked with: it ships in
 * dist/webhooks.js, but its modules run only then, and the JSON parser it uses (dist/platformLate.js)
 * loads only then, so neither activation nor the Webhooks view pays for a parser most windows never
 * use. Called from providers that have no log at hand, so its load time is not logged.
 * Building the loader loads nothing (hence pure: a bundle that imports this file without calling it
 * leaves it out).
 */
export const payloadCore: () => PayloadCore = /* @__PURE__ */ onFirstUse('payload core', undefined, () => require('../../model/payload') as PayloadCore);
