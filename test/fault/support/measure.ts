/**
 * What a fault case measures besides its own asserts: how long the event loop was blocked (the
 * extension host has one thread; a parser that spins on a hostile body freezes every extension)
 * and how much the heap grew while the case ran.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';

export interface Measurement {
  /** The longest single stall of the event loop, in ms. */
  maxEventLoopDelayMs: number;
  /** Heap growth from the start to the highest sample, in MiB. */
  peakHeapGrowthMiB: number;
}

/** Runs `work` while sampling event-loop delay and heap use; returns both with the work's result. */
export async function measure<T>(work: () => Promise<T>): Promise<{ result: T; measurement: Measurement }> {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  const startHeap = process.memoryUsage().heapUsed;
  let peakHeap = startHeap;
  const sampler = setInterval(() => {
    peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
  }, 20);
  histogram.enable();
  try {
    // A turn of the event loop before and after: the histogram records a stall only when its own
    // timer fires late, so purely synchronous work would otherwise go unseen.
    await nextTurn();
    const result = await work();
    peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
    await nextTurn();
    return {
      result,
      measurement: {
        maxEventLoopDelayMs: histogram.max / 1e6,
        peakHeapGrowthMiB: (peakHeap - startHeap) / 2 ** 20,
      },
    };
  } finally {
    clearInterval(sampler);
    histogram.disable();
  }
}

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 25));
}
