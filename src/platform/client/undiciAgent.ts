/**
 * undici's Agent with its `request` call, and nothing else of undici. The package's main entry also
 * loads fetch, WebSocket, the HTTP cache, mocks and proxy agents, none of which RL Studio uses:
 * bundled, that is 535 KB and some 80 ms to load on the host thread, at the first request the
 * sidebar makes. Loading the Agent by its own path halves both (measured in `npm run bench`,
 * network first load).
 *
 * The main entry attaches its call methods to every dispatcher (`Object.assign(Dispatcher.prototype,
 * api)`); this attaches the one used here, the same function, unless the main entry already did.
 * The paths are pinned by package-lock.json, and a unit test fails when an undici update moves them.
 */
import type { Agent as UndiciAgent } from 'undici';

const dispatcherBase = require('undici/lib/dispatcher/dispatcher') as { prototype: { request?: unknown } };
const requestCall = require('undici/lib/api/api-request') as unknown;
const agentClass = require('undici/lib/dispatcher/agent') as typeof UndiciAgent;

if (typeof dispatcherBase.prototype.request !== 'function') dispatcherBase.prototype.request = requestCall;

export const Agent = agentClass;
