/**
 * What the memory figures of `npm run bench` count, one way for every suite: the JS heap plus array
 * buffers (what an extension host holds; socket and file reads are Buffers, outside the heap),
 * measured after full collections.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * A full garbage collection before each measurement, so that garbage left by the previous one (or by
 * earlier suites) is not counted against the next. `npm run bench` starts node without --expose-gc;
 * the flag can still be set at run time and the function taken from a fresh context.
 */
export function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/** Lets the turns run that release what is left over (a read stream's last buffers, finalizers), then collects twice. */
export async function settled(collect: () => void): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 50));
  collect();
  collect();
}

/** The heap in use plus array buffers, in bytes. */
export function held(): number {
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}
