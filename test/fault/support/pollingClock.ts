/**
 * Simulated time for polling against real servers: timers wait on this clock, but every request
 * is real. `run` fires the due timers one after another and, between two, waits (in real time) until
 * the code under test says it has settled, so ten simulated minutes of polling take a second or two.
 */
import type { Clock } from '../../../src/core/clock';

interface Timer { id: number; at: number; callback: () => void }

export class SimulatedClock implements Clock {
  private time = 1_700_000_000_000;
  private timers: Timer[] = [];
  private nextId = 1;

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => void, ms: number): unknown {
    const timer = { id: this.nextId++, at: this.time + Math.max(0, ms), callback };
    this.timers.push(timer);
    return timer.id;
  }

  clearTimeout(handle: unknown): void {
    this.timers = this.timers.filter((timer) => timer.id !== handle);
  }

  /** Timers armed now. */
  pending(): number {
    return this.timers.length;
  }

  /**
   * Moves time forward by `ms`, firing each due timer in time order; before each one (and at the
   * end) waits until `settled()` holds, so requests a timer started are answered before time moves.
   */
  async run(ms: number, settled: () => boolean = () => true): Promise<void> {
    const end = this.time + ms;
    for (;;) {
      await until(settled, 'the polls to settle');
      const due = this.timers.filter((timer) => timer.at <= end).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) break;
      this.timers = this.timers.filter((timer) => timer !== due);
      this.time = due.at;
      due.callback();
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
      for (;;) {
        const due = this.timers.filter((timer) => timer.at <= stepEnd).sort((a, b) => a.at - b.at || a.id - b.id)[0];
        if (!due) break;
        this.timers = this.timers.filter((timer) => timer !== due);
        this.time = Math.max(this.time, due.at);
        due.callback();
      }
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
