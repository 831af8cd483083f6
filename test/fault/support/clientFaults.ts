/** The client the fault cases attack: the real PlatformClient, pointed at a hostile server. */
import assert from 'node:assert/strict';
import { isPlatformError, PlatformClient, type ClientOptions, type PlatformError, type RequestLogEntry } from '../../../src/platform/client';

/** Distinctive, with upper case letters, so a leak is found by plain or case-folded search. */
export const faultApiKey = 'sk-fault-Zq8Lm3Xv9Rt2Wp7K';

export function faultClient(apiUrl: string, overrides: Partial<ClientOptions> = {}): PlatformClient & { log: RequestLogEntry[] } {
  const log: RequestLogEntry[] = [];
  const client = new PlatformClient({
    trainingUrl: apiUrl,
    inferenceUrl: apiUrl,
    credentials: { getApiKey: async () => faultApiKey },
    maxRetries: 0,
    timeoutMs: 10_000,
    ...overrides,
    logger: (entry) => log.push(entry),
  });
  return Object.assign(client, { log });
}

/** Awaits a rejection that must be a PlatformError without the key in it, in any letter case. */
export async function platformFailure(work: Promise<unknown> | (() => Promise<unknown>)): Promise<PlatformError> {
  try {
    await (typeof work === 'function' ? work() : work);
  } catch (error) {
    assert.ok(isPlatformError(error), `expected a PlatformError, got ${String(error)}`);
    const text = `${error.message}\n${(error.details ?? []).join('\n')}`.toLowerCase();
    assert.ok(!text.includes(faultApiKey.toLowerCase()), `the key is in the error: ${error.message}`);
    return error;
  }
  assert.fail('expected the call to fail');
}
