/**
 * Simulated time for polling against real servers: timers wait on this clock, but every request
 * is real. `run` fires the due timers one after another and, between two, waits (in real time) until
 * the code under test says it has settled, so ten simulated minutes of polling take a second or two.
 */
import { FakeClock } from '../../unit/support/fakeClock';

export class SimulatedClock extends FakeClock {
  constructor() {
    super(1_700_000_000_000);
  }

  /**
   * Moves time forward by `ms`, firing each due timer in time order; before each one (and at the
   * end) waits until `settled()` holds, so requests a timer started are answered before time moves.
   */
  async run(ms: number, settled: () => boolean = () => true): Promise<void> {
    const end = this.time + ms;
    for (;;) {
      await until(settled, 'the polls to settle');
      if (!this.fireNextDue(end)) break;
    }
    this.time = end;
    await until(settled, 'the polls to settle');
  }

  /**
   * Moves time forward by `ms` in steps of `stepMs` without waiting for anything to settle, letting
   * real time pass between steps: many polls are in flight at once, as after a start with many jobs.
   */
  async sweep(ms: number, stepMs: number, realPauseMs = 1): Promise<void> {
    const end = this.time + ms;
    while (this.time < end) {
      const stepEnd = Math.min(end, this.time + stepMs);
      while (this.fireNextDue(stepEnd)) continue;
      this.time = stepEnd;
      await new Promise((resolve) => setTimeout(resolve, realPauseMs));
    }
  }
}

/** Resolves once `predicate()` holds, checking after each turn of the event loop; fails after `limitMs` of real time. */
export async function until(predicate: () => boolean, what: string, limitMs = 15_000): Promise<void> {
  const started = Date.now();
  let turns = 0;
  while (!predicate()) {
    if (Date.now() - started > limitMs) throw new Error(`gave up waiting for ${what} after ${limitMs} ms`);
    // Mostly immediate turns (cheap), with a short sleep now and then so sockets get served.
    if (++turns % 20 === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    else await new Promise((resolve) => setImmediate(resolve));
  }
}
