import type { Clock } from '../../../src/platform/kit/clock';

interface Timer {
  id: number;
  at: number;
  callback: () => void;
}

/** A clock whose time moves only when a test says so; timers fire in time order. */
export class FakeClock implements Clock {
  protected timers: Timer[] = [];
  private nextId = 1;

  constructor(protected time = 1_000_000) {}

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

  pending(): number {
    return this.timers.length;
  }

  /** Delays of the armed timers, from now. */
  delays(): number[] {
    return this.timers.map((timer) => timer.at - this.time).sort((a, b) => a - b);
  }

  /** Moves time forward, firing due timers and letting the promises they start settle. */
  async advance(ms: number): Promise<void> {
    const end = this.time + ms;
    for (;;) {
      await settle();
      if (!this.fireNextDue(end)) break;
    }
    this.time = end;
    await settle();
  }

  /** Fires the earliest timer due by `end` (time moves to it, never back); false when none is due. */
  protected fireNextDue(end: number): boolean {
    const due = this.timers.filter((timer) => timer.at <= end).sort((a, b) => a.at - b.at || a.id - b.id)[0];
    if (!due) return false;
    this.timers = this.timers.filter((timer) => timer !== due);
    this.time = Math.max(this.time, due.at);
    due.callback();
    return true;
  }
}

/** Lets pending promise callbacks run. */
export async function settle(): Promise<void> {
  for (let round = 0; round < 5; round++) await new Promise((resolve) => setImmediate(resolve));
}
