import type { Page, TrainingJobEvent } from '../../platform/client/types';

/** Reads one page of a job's events after a cursor. */
export type FetchEventPage = (after: string | undefined, signal: AbortSignal) => Promise<Page<TrainingJobEvent>>;

/**
 * How a server broke the paging rules during one poll. `after` is the id of the last event seen, so
 * a server that honours it never sends an event twice and never points back to a cursor it already
 * gave.
 * - `redelivered`: a page held events already known (the server ignores `after`, or serves a page
 *   of nothing but old events);
 * - `repeated-cursor`: has_more with a cursor already followed (it would loop for ever);
 * - `no-cursor`: has_more with nothing to follow.
 */
export type PagingFault = 'redelivered' | 'repeated-cursor' | 'no-cursor';

export interface EventRead {
  /** Events not known before, oldest first, each once. */
  readonly events: TrainingJobEvent[];
  readonly requests: number;
  readonly fault?: PagingFault;
  /** The page cap was reached while the server still said has_more: there is more to read. */
  readonly more: boolean;
}

export interface EventReadLimits {
  /** Pages read in one poll at most. */
  maxPages: number;
}

/** The cursors a job's polls followed lately, so a cursor the server hands out again is noticed. */
export class RecentCursors {
  private readonly seen = new Set<string>();

  constructor(private readonly capacity = 64) {}

  has(cursor: string): boolean {
    return this.seen.has(cursor);
  }

  add(cursor: string): void {
    this.seen.delete(cursor);
    this.seen.add(cursor);
    // Insertion order: the first is the oldest.
    if (this.seen.size > this.capacity) this.seen.delete(this.seen.values().next().value!);
  }

  get size(): number {
    return this.seen.size;
  }
}

/**
 * Reads the events after `start`, page by page, trusting the server only as far as it keeps the
 * rules: at most `maxPages` pages, never a cursor twice, and nothing taken twice. A page that holds
 * known events is taken only past the cursor's own event (a server that repeats it, or the prefix
 * before it, loses nothing), and then reading stops.
 */
export async function readNewEvents(
  fetchPage: FetchEventPage,
  start: string | undefined,
  isKnown: (id: string) => boolean,
  recent: RecentCursors,
  limits: EventReadLimits,
  signal: AbortSignal,
): Promise<EventRead> {
  const events: TrainingJobEvent[] = [];
  const taken = new Set<string>();
  const followed = new Set<string>();
  if (start !== undefined) followed.add(start);
  let cursor = start;
  let requests = 0;
  const maxPages = Math.max(1, Math.floor(limits.maxPages) || 1);
  for (;;) {
    requests++;
    const page = await fetchPage(cursor, signal);
    const data = Array.isArray(page.data) ? page.data : [];
    const known = (id: string) => taken.has(id) || isKnown(id);
    const anchor = cursor === undefined ? -1 : data.findIndex((event) => event?.id === cursor);
    let redelivered = false;
    let fresh = 0;
    for (let index = 0; index < data.length; index++) {
      const event = data[index];
      if (!event || typeof event.id !== 'string') continue;
      if (index === anchor) continue;
      if (known(event.id) || index < anchor) {
        redelivered = true;
        continue;
      }
      // Past known events with no anchor, the rest cannot be placed: they may be old ones no longer kept.
      if (redelivered && anchor < 0) continue;
      taken.add(event.id);
      events.push(event);
      fresh++;
    }
    // A page of nothing but events already seen counts as nothing new, whatever it says.
    if (redelivered || (data.length > 0 && fresh === 0)) return { events, requests, fault: 'redelivered', more: false };
    if (page.has_more !== true) return { events, requests, more: false };
    const next = page.last_id || data[data.length - 1]?.id;
    if (typeof next !== 'string' || next === '' || data.length === 0) return { events, requests, fault: 'no-cursor', more: false };
    if (followed.has(next) || recent.has(next)) return { events, requests, fault: 'repeated-cursor', more: false };
    followed.add(next);
    recent.add(next);
    if (requests >= maxPages) return { events, requests, more: true };
    cursor = next;
  }
}

export interface EventReread extends EventRead {
  /** The id of the last event the server listed, known or not: where the next poll goes on from. */
  readonly lastListedId?: string;
}

/**
 * Reads a job's events from the beginning again, for a server that refused the saved place (a 4xx
 * on `after`, as after a restart of the server or once old events expired). Events already known
 * are skipped by id, not taken as a fault; the rest are taken once each. Bounded like a poll: at
 * most `maxPages` pages, never a cursor twice.
 */
export async function rereadEvents(fetchPage: FetchEventPage, isKnown: (id: string) => boolean, limits: EventReadLimits, signal: AbortSignal): Promise<EventReread> {
  const events: TrainingJobEvent[] = [];
  const taken = new Set<string>();
  const followed = new Set<string>();
  let cursor: string | undefined;
  let lastListedId: string | undefined;
  let requests = 0;
  const maxPages = Math.max(1, Math.floor(limits.maxPages) || 1);
  for (;;) {
    requests++;
    const page = await fetchPage(cursor, signal);
    const data = Array.isArray(page.data) ? page.data : [];
    for (const event of data) {
      if (!event || typeof event.id !== 'string') continue;
      lastListedId = event.id;
      if (taken.has(event.id) || isKnown(event.id)) continue;
      taken.add(event.id);
      events.push(event);
    }
    const last = { events, requests, more: false, ...(lastListedId !== undefined ? { lastListedId } : {}) };
    if (page.has_more !== true) return last;
    const next = page.last_id || data[data.length - 1]?.id;
    if (typeof next !== 'string' || next === '' || data.length === 0) return { ...last, fault: 'no-cursor' };
    if (followed.has(next)) return { ...last, fault: 'repeated-cursor' };
    followed.add(next);
    if (requests >= maxPages) return { ...last, more: true };
    cursor = next;
  }
}
