import type { TrainingJobEvent } from '../../platform/client/types';
import { isTerminalEvent } from './jobStatus';

/**
 * The events kept for one job, oldest first, and the ids among them. Bounded: beyond the limit the
 * oldest go, except the first event (`training_started` announces the total) and the terminal
 * event, which views and status need whatever happened in between. The status is folded from every
 * event as it arrives, so dropping old ones changes no count.
 */
export class EventWindow {
  private kept: readonly TrainingJobEvent[] = [];
  private readonly ids = new Set<string>();
  private droppedCount = 0;

  constructor(private limit: number) {
    this.limit = sanitizeLimit(limit);
  }

  /** The events kept, oldest first. A new array after every change, so views can compare. */
  get events(): readonly TrainingJobEvent[] {
    return this.kept;
  }

  /** Events no longer kept because the window was full. */
  get dropped(): number {
    return this.droppedCount;
  }

  has(id: string): boolean {
    return this.ids.has(id);
  }

  /** Appends events the caller checked are new, then trims to the limit. */
  append(events: readonly TrainingJobEvent[]): void {
    if (events.length === 0) return;
    const next = [...this.kept];
    for (const event of events) {
      if (this.ids.has(event.id)) continue;
      this.ids.add(event.id);
      next.push(event);
    }
    this.kept = this.trimmed(next);
  }

  /** Changes the limit; returns true when events were dropped to meet it. */
  setLimit(limit: number): boolean {
    this.limit = sanitizeLimit(limit);
    if (this.kept.length <= this.limit) return false;
    this.kept = this.trimmed([...this.kept]);
    return true;
  }

  private trimmed(events: TrainingJobEvent[]): readonly TrainingJobEvent[] {
    if (events.length <= this.limit) return events;
    // The pinned events first, then the newest until the window is full; order is kept.
    const keep = pinnedIndices(events);
    for (let index = events.length - 1; index >= 0 && keep.size < this.limit; index--) keep.add(index);
    const out: TrainingJobEvent[] = [];
    for (let index = 0; index < events.length; index++) {
      const event = events[index]!;
      if (keep.has(index)) out.push(event);
      else {
        this.ids.delete(event.id);
        this.droppedCount++;
      }
    }
    return out;
  }
}

/** The first event and the last terminal event. */
function pinnedIndices(events: readonly TrainingJobEvent[]): Set<number> {
  const pinned = new Set<number>([0]);
  for (let index = events.length - 1; index >= 0; index--) {
    if (isTerminalEvent(events[index]!)) {
      pinned.add(index);
      break;
    }
  }
  return pinned;
}

function sanitizeLimit(limit: number): number {
  // Room for the two pinned events and at least one more.
  return Number.isFinite(limit) ? Math.max(3, Math.floor(limit)) : 3;
}
