/**
 * Proof that code which was turned off does nothing more, without watching a quiet window for a
 * while: every timer the extension armed has fired or been cleared (nothing is left that could
 * start work later), and no request was made since it was turned off. undici announces each
 * request synchronously as it is created, so one started by a timer that fired meanwhile is seen
 * before it could reach any server.
 */
import { createHook } from 'node:async_hooks';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';

/** A stack frame of the extension's code: its bundles (dist/), or its sources (src/) through source maps. */
function isExtensionFrame(line: string): boolean {
  return /[\\/](dist|src)[\\/]/.test(line) && !/node_modules/.test(line);
}

export interface ArmedTimers {
  /** Timers the extension created since watching began that are still armed, each with where it was created. */
  alive(): string[];
  stop(): void;
}

/** Watches the timers (setTimeout, setInterval) the extension's code creates from now on. */
export function watchArmedTimers(): ArmedTimers {
  const armed = new Map<number, string>();
  const hook = createHook({
    init(id, type) {
      if (type !== 'Timeout') return;
      const frames = (new Error().stack ?? '').split('\n').filter(isExtensionFrame);
      if (frames.length > 0) armed.set(id, frames.slice(0, 4).join('\n'));
    },
    destroy(id) {
      armed.delete(id);
    },
  });
  hook.enable();
  return { alive: () => [...armed.values()], stop: () => hook.disable() };
}

export interface MadeRequests {
  /** `METHOD origin/path` of every request created since watching began, to the watched origin. */
  readonly made: string[];
  stop(): void;
}

/** Records every request undici creates to `origin` (http://host:port) from now on. */
export function watchRequestsTo(origin: string): MadeRequests {
  const made: string[] = [];
  const onCreate = (message: unknown) => {
    const request = (message as { request?: { origin?: unknown; method?: string; path?: string } }).request;
    if (String(request?.origin ?? '').replace(/\/$/, '') === origin) made.push(`${request?.method} ${request?.path}`);
  };
  subscribe('undici:request:create', onCreate);
  return { made, stop: () => unsubscribe('undici:request:create', onCreate) };
}

/**
 * Resolves once no timer of the extension is armed; fails after `timeoutMs`, naming where the ones
 * left were created (a poll or a check that was not stopped).
 */
export async function untilNothingArmed(timers: ArmedTimers, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (timers.alive().length > 0) {
    if (Date.now() > deadline) throw new Error(`timers still armed ${timeoutMs} ms after turning off:\n${timers.alive().join('\n---\n')}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
