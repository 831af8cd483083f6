/**
 * Polls until a probe gives a value that satisfies a check, for state that settles asynchronously
 * (views refresh after sign-in, settings propagate to the extension). On timeout the error names
 * what was awaited and the last value seen, which is what a reader of a CI log needs.
 */
export interface WaitOptions {
  timeoutMs?: number;
  intervalMs?: number;
}

export async function waitUntil<T>(what: string, probe: () => T | Promise<T>, accept: (value: T) => boolean, { timeoutMs = 15_000, intervalMs = 100 }: WaitOptions = {}): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  let lastError: unknown;
  for (;;) {
    try {
      last = await probe();
      lastError = undefined;
      if (accept(last)) return last;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) break;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  const seen = lastError !== undefined ? `last error: ${String(lastError)}` : `last value: ${JSON.stringify(last)}`;
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (${seen})`);
}
