/**
 * Time and timers, injected wherever logic waits or measures, so it is tested without waiting
 * (test/unit/support/fakeClock.ts implements this interface). Pure: works in Node and in the webviews.
 */
export interface Clock {
  /** Milliseconds: since the epoch for systemClock, since an arbitrary start for monotonicClock. */
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

function setUnrefTimeout(callback: () => void, ms: number): unknown {
  const handle = setTimeout(callback, ms);
  // A pending timer never keeps a process alive on its own (tests, benchmarks, extension host shutdown).
  (handle as { unref?: () => void }).unref?.();
  return handle;
}

function clearAnyTimeout(handle: unknown): void {
  clearTimeout(handle as ReturnType<typeof setTimeout>);
}

/** Wall time: for moments people read and compare with the server's (when an event happened, since when an API fails). */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: setUnrefTimeout,
  clearTimeout: clearAnyTimeout,
};

/**
 * Time that only moves forward: for intervals and throttles, which a change of the computer's
 * clock must not stretch or shrink (a write throttled "until an hour ago" would wait an hour).
 */
export const monotonicClock: Clock = {
  now: () => performance.now(),
  setTimeout: setUnrefTimeout,
  clearTimeout: clearAnyTimeout,
};
