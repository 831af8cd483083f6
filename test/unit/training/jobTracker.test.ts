import * as assert from 'node:assert/strict';
import { PlatformError } from '../../../src/platform/client/errors';
import type { Page, PageQuery, TrainingJob, TrainingJobEvent } from '../../../src/platform/client/types';
import { JobTracker, type JobChange, type JobSource } from '../../../src/training/model/jobTracker';
import { describePhase, progressOf } from '../../../src/training/model/jobStatus';
import { defaultPollPolicy } from '../../../src/training/model/pollPolicy';
import { FakeClock, settle } from '../support/fakeClock';

/** A job whose events the test appends; it serves them by cursor like the platform does. */
class FakeJobSource implements JobSource {
  readonly timelines = new Map<string, TrainingJobEvent[]>();
  readonly queries: { id: string; query: PageQuery }[] = [];
  failNext = 0;
  missing = new Set<string>();
  /** Jobs whose server refuses `after` with a 400 when it names an event it no longer has. */
  forgotten = new Set<string>();
  /** The status of that refusal. */
  forgottenStatus = 400;
  /** Jobs whose server answers every request with the first page, whatever `after` says. */
  ignoreAfter = new Set<string>();
  /** Jobs whose server invents a page of new events with has_more and the cursors A, B, A, B… */
  alternating = new Set<string>();
  /** Jobs whose server invents a page of new events with a new cursor and has_more, for ever. */
  endless = new Set<string>();
  private next = 0;
  private invented = 0;

  add(id: string, type: string, data: Record<string, unknown> = {}): void {
    const list = this.timelines.get(id) ?? [];
    list.push({ id: `${id}-ev${++this.next}`, type, data });
    this.timelines.set(id, list);
  }

  events(id: string, query: PageQuery): Promise<Page<TrainingJobEvent>> {
    this.queries.push({ id, query });
    if (this.missing.has(id)) return Promise.reject(Object.assign(new Error('Training job not found'), { status: 404 }));
    if (this.failNext > 0) {
      this.failNext--;
      return Promise.reject(new Error('could not connect to 127.0.0.1:9 (connection refused)'));
    }
    if (query.after !== undefined && this.forgotten.has(query.after))
      return Promise.reject(
        new PlatformError({
          kind: 'http',
          status: this.forgottenStatus,
          api: 'training',
          method: 'GET',
          path: `/preview/training-jobs/${id}/events`,
          message: `GET … failed: ${this.forgottenStatus} unknown event ${query.after}`,
        }),
      );
    if (this.alternating.has(id) || this.endless.has(id)) return Promise.resolve(this.inventedPage(id, query));
    return Promise.resolve(this.eventsPage(id, this.ignoreAfter.has(id) ? { ...query, after: undefined } : query));
  }

  private inventedPage(id: string, query: PageQuery): Page<TrainingJobEvent> {
    const data = Array.from({ length: query.limit ?? 20 }, () => ({ id: `${id}-made${++this.invented}`, type: 'gradient_step', data: { loss: 1 } }));
    const last = this.alternating.has(id) ? ((this.invented / data.length) % 2 === 0 ? 'cursor-A' : 'cursor-B') : data.at(-1)!.id;
    return { object: 'list', data, first_id: data[0]!.id, last_id: last, has_more: true };
  }

  async job(id: string): Promise<TrainingJob> {
    return { id, training_start: '2025-01-01T00:00:00Z' };
  }

  private eventsPage(id: string, query: PageQuery): Page<TrainingJobEvent> {
    const list = this.timelines.get(id) ?? [];
    const start = query.after ? list.findIndex((event) => event.id === query.after) + 1 : 0;
    const data = list.slice(start, start + (query.limit ?? 20));
    return { object: 'list', data, first_id: data[0]?.id ?? '', last_id: data[data.length - 1]?.id ?? '', has_more: start + data.length < list.length };
  }
}

describe('job tracker', () => {
  let clock: FakeClock;
  let source: FakeJobSource;
  let tracker: JobTracker;
  let changes: JobChange[];

  beforeEach(() => {
    clock = new FakeClock();
    source = new FakeJobSource();
    tracker = new JobTracker({
      source,
      clock,
      policy: defaultPollPolicy(1000),
      random: () => 0,
      pageSize: 2,
      isPermanent: (error) => (error as { status?: number }).status === 404,
    });
    changes = [];
    tracker.onDidChange((change) => changes.push(change));
  });

  afterEach(() => tracker.dispose());

  it('follows a job by cursor until it ends, reporting only real changes', async () => {
    tracker.track('j');
    assert.equal(tracker.get('j')?.loaded, undefined, 'not known before the first answer');
    await settle();
    assert.equal(tracker.get('j')?.loaded, true);
    assert.equal(tracker.get('j')?.status.phase, 'queued');
    const afterFirst = changes.length;

    await clock.advance(1000);
    assert.equal(changes.length, afterFirst, 'nothing new, no change reported');

    source.add('j', 'training_started', { num_sequences: 3 });
    source.add('j', 'gradient_step', { loss: 3 });
    source.add('j', 'gradient_step', { loss: 2 });
    await clock.advance(1000);
    const running = tracker.get('j')!;
    assert.equal(running.status.phase, 'running');
    assert.equal(running.status.step, 2);
    assert.equal(running.events.length, 3);
    assert.deepEqual(
      changes.at(-1)?.newEvents.map((event) => event.type),
      ['training_started', 'gradient_step', 'gradient_step'],
    );

    source.add('j', 'gradient_step', { loss: 1 });
    source.add('j', 'training_ended');
    await clock.advance(1000);
    assert.equal(tracker.get('j')?.status.phase, 'succeeded');
    assert.equal(tracker.isPolling('j'), false);

    // Every request after the first carried the cursor of the last event seen.
    const cursors = source.queries.map((entry) => entry.query.after);
    assert.equal(cursors[0], undefined);
    assert.ok(cursors.includes(running.status.lastEventId));

    const before = source.queries.length;
    await clock.advance(30_000);
    assert.equal(source.queries.length, before, 'a finished job is not polled');
  });

  it('resumes from the last event seen after network failures, without losing or repeating events', async () => {
    source.add('j', 'training_started', { num_sequences: 5 });
    tracker.track('j');
    await settle();
    const cursor = tracker.get('j')!.status.lastEventId;
    source.failNext = 2;
    source.add('j', 'gradient_step', { loss: 5 });
    await clock.advance(1000);
    assert.match(tracker.get('j')!.connectionError ?? '', /connection refused/);
    await clock.advance(2000);
    assert.equal(tracker.get('j')!.status.step, 0);
    source.add('j', 'gradient_step', { loss: 4 });
    await clock.advance(4000);
    const record = tracker.get('j')!;
    assert.equal(record.connectionError, undefined);
    assert.equal(record.status.step, 2);
    assert.deepEqual(
      record.events.map((event) => event.type),
      ['training_started', 'gradient_step', 'gradient_step'],
    );
    const retries = source.queries.slice(1).map((entry) => entry.query.after);
    assert.deepEqual(retries.slice(0, 3), [cursor, cursor, cursor]);
  });

  it('reads a finished job once and does not poll it', async () => {
    source.add('done', 'training_started', { num_sequences: 1 });
    source.add('done', 'gradient_step', { loss: 1 });
    source.add('done', 'training_failed', { error_message: 'reward was NaN' });
    tracker.track('done');
    await settle();
    const record = tracker.get('done')!;
    assert.equal(record.status.phase, 'failed');
    assert.equal(record.status.errorMessage, 'reward was NaN');
    assert.equal(tracker.isPolling('done'), false);
    assert.equal(clock.pending(), 0);
    // Three events with pages of two: two event requests.
    assert.equal(source.queries.length, 2);
  });

  it('stops for good when the job does not exist', async () => {
    source.missing.add('ghost');
    tracker.track('ghost');
    await settle();
    assert.equal(tracker.get('ghost')?.stopped, true);
    assert.match(tracker.get('ghost')?.connectionError ?? '', /not found/);
    assert.equal(tracker.isPolling('ghost'), false);
    assert.equal(clock.pending(), 0);
    source.missing.delete('ghost');
    tracker.refresh('ghost');
    await settle();
    assert.ok(!tracker.get('ghost')?.stopped);
    assert.equal(tracker.get('ghost')?.connectionError, undefined);
    assert.equal(tracker.isPolling('ghost'), true, 'a refresh starts polling again');
  });

  it('keeps the real events once from a server that ignores `after`, and polls it less and less', async () => {
    source.ignoreAfter.add('j');
    source.add('j', 'training_started', { num_sequences: 100 });
    tracker.track('j');
    await settle();
    for (let step = 0; step < 10; step++) {
      source.add('j', 'gradient_step', { loss: step });
      await clock.advance(60_000);
    }
    // Pages of two: what this server serves never goes past its first page.
    const record = tracker.get('j')!;
    assert.equal(record.events.length, new Set(record.events.map((event) => event.id)).size, 'no event twice');
    assert.ok(record.events.length <= 2);
    assert.equal(record.status.step, record.events.filter((event) => event.type === 'gradient_step').length);
    const before = source.queries.length;
    await clock.advance(10 * 60_000);
    const perMinute = (source.queries.length - before) / 10;
    assert.ok(perMinute <= 2, `${perMinute} requests a minute`);
    assert.ok(tracker.isPolling('j'), 'still followed, just slowly');
  });

  it('takes only what follows the cursor from a server that repeats earlier events with new ones', async () => {
    const wide = new JobTracker({ source, clock, policy: defaultPollPolicy(1000), random: () => 0, pageSize: 100 });
    const seen: JobChange[] = [];
    wide.onDidChange((change) => seen.push(change));
    source.ignoreAfter.add('j');
    source.add('j', 'training_started', { num_sequences: 5 });
    wide.track('j');
    await settle();
    for (let step = 0; step < 5; step++) {
      source.add('j', 'gradient_step', { loss: 5 - step });
      await clock.advance(120_000);
    }
    source.add('j', 'training_ended');
    await clock.advance(120_000);
    const record = wide.get('j')!;
    assert.deepEqual(
      record.events.map((event) => event.type),
      ['training_started', ...Array(5).fill('gradient_step'), 'training_ended'],
    );
    assert.equal(record.status.step, 5);
    assert.equal(record.status.phase, 'succeeded');
    assert.equal(wide.isPolling('j'), false);
    assert.equal(seen.flatMap((change) => change.newEvents).length, 7, 'each event reported once');
    wide.dispose();
  });

  it('stops at a cursor seen before and backs off a server that alternates cursors for ever', async () => {
    const faults: string[] = [];
    const guarded = new JobTracker({ source, clock, policy: defaultPollPolicy(1000), random: () => 0, pageSize: 5, onPagingFault: (_id, fault) => faults.push(fault) });
    source.alternating.add('j');
    guarded.track('j');
    await settle();
    assert.equal(source.queries.length, 3, 'A, B, then A again: stop');
    await clock.advance(10 * 60_000);
    assert.ok(source.queries.length <= 20, `${source.queries.length} requests in 10 minutes`);
    assert.ok(guarded.get('j')!.events.length <= 5_000);
    assert.deepEqual(faults, ['repeated-cursor'], 'told once, when it started');
    guarded.dispose();
  });

  it('reads a backlog at most ten pages a poll at the normal pace, and slows down a server whose pages never end', async () => {
    for (let index = 0; index < 1000; index++) source.add('backlog', 'gradient_step', { loss: index });
    const paged = new JobTracker({ source, clock, policy: defaultPollPolicy(1000), random: () => 0, pageSize: 10 });
    paged.track('backlog');
    await settle();
    assert.equal(source.queries.length, 10);
    assert.equal(paged.get('backlog')!.status.step, 100);
    await clock.advance(9_000);
    assert.equal(paged.get('backlog')!.status.step, 1000, 'caught up at one poll a second');

    source.endless.add('endless');
    paged.track('endless');
    await clock.advance(10 * 60_000);
    const requests = source.queries.filter((entry) => entry.id === 'endless').length;
    // 30 polls of ten pages catch up, then the waits double up to a minute.
    assert.ok(requests <= 30 * 10 + 20 * 10, `${requests} requests in 10 minutes`);
    const endlessRequests = () => source.queries.filter((entry) => entry.id === 'endless').length;
    const before = endlessRequests();
    await clock.advance(5 * 60_000);
    assert.ok((endlessRequests() - before) / 5 <= 10, `${(endlessRequests() - before) / 5} requests a minute: a poll of ten pages a minute at most`);
    assert.ok(paged.get('endless')!.events.length <= 5_000, 'events kept stay bounded');
    paged.dispose();
  });

  it('keeps the newest events up to the bound, with the first and the terminal one, counting them all', async () => {
    const bounded = new JobTracker({ source, clock, policy: defaultPollPolicy(1000), random: () => 0, pageSize: 100, maxEventsPerJob: 50 });
    source.add('j', 'training_started', { num_sequences: 200 });
    for (let index = 0; index < 200; index++) source.add('j', 'gradient_step', { loss: index });
    source.add('j', 'training_ended');
    bounded.track('j');
    await clock.advance(5000);
    const record = bounded.get('j')!;
    assert.equal(record.events.length, 50);
    assert.equal(record.events[0]!.type, 'training_started');
    assert.equal(record.events.at(-1)!.type, 'training_ended');
    assert.equal(record.droppedEvents, 152);
    assert.equal(record.status.step, 200);
    assert.equal(record.status.eventCount, 202);
    bounded.dispose();
  });

  it('shares an event budget between jobs, so more jobs never mean more events kept', async () => {
    const shared = new JobTracker({ source, clock, policy: defaultPollPolicy(1000), random: () => 0, pageSize: 100, maxEventsPerJob: 500, maxEventsTotal: 1000 });
    for (let index = 0; index < 600; index++) source.add('big', 'gradient_step', { loss: index });
    shared.track('big');
    await clock.advance(5000);
    assert.equal(shared.get('big')!.events.length, 500);
    for (const id of ['b', 'c', 'd']) shared.track(id);
    assert.equal(shared.get('big')!.events.length, 250);
    assert.equal(shared.get('big')!.status.step, 600);
    shared.dispose();
  });

  it('shows more steps than announced without breaking progress', async () => {
    source.add('j', 'training_started', { num_sequences: 3 });
    for (let index = 0; index < 5; index++) source.add('j', 'gradient_step', { loss: index });
    tracker.track('j');
    await clock.advance(5000);
    const { status } = tracker.get('j')!;
    assert.equal(status.step, 5);
    assert.equal(describePhase(status), 'running · job step 5 (3 announced)');
    assert.equal(progressOf(status), 1);
  });

  it('reads a finished job again only on an explicit refresh, and not after that', async () => {
    source.add('done', 'training_ended');
    tracker.track('done');
    await settle();
    const after = source.queries.length;
    tracker.refreshAll();
    tracker.track('done');
    await clock.advance(60_000);
    assert.equal(source.queries.length, after, 'neither Refresh all nor tracking again polls a finished job');
    tracker.refresh('done');
    await clock.advance(60_000);
    assert.equal(source.queries.length, after + 1);
    assert.equal(tracker.isPolling('done'), false);
  });

  it('forgets untracked jobs and ignores their late answers', async () => {
    tracker.track('j');
    tracker.untrack('j');
    await settle();
    assert.equal(tracker.get('j'), undefined);
    assert.equal(changes.filter((change) => change.id === 'j').length, 0);
  });
  it('starts over from the beginning when the server refuses the saved place, taking each event once, and says so', async () => {
    const refusals: { id: string; found: number }[] = [];
    const restarting = new JobTracker({ source, clock, policy: defaultPollPolicy(1000), random: () => 0, pageSize: 2, onCursorRefused: (id, _error, found) => refusals.push({ id, found }) });
    try {
      source.add('r', 'training_started', { num_sequences: 4 });
      source.add('r', 'gradient_step', { loss: 4 });
      source.add('r', 'gradient_step', { loss: 3 });
      restarting.track('r');
      await settle();
      const saved = restarting.get('r')!.status.lastEventId!;
      assert.equal(restarting.get('r')!.events.length, 3);
      // The server restarts: it no longer knows the saved event, and two more steps came meanwhile.
      source.forgotten.add(saved);
      source.add('r', 'gradient_step', { loss: 2 });
      source.add('r', 'gradient_step', { loss: 1 });
      await clock.advance(1000);
      const record = restarting.get('r')!;
      assert.equal(record.connectionError, undefined, 'no raw error stays on the job');
      assert.deepEqual(
        record.events.map((event) => event.data?.loss),
        [undefined, 4, 3, 2, 1],
        'every event once, in order',
      );
      assert.equal(record.status.step, 4);
      assert.deepEqual(refusals, [{ id: 'r', found: 2 }]);
      // The next poll goes on from the last event listed, by cursor again.
      const before = source.queries.length;
      source.add('r', 'training_ended');
      await clock.advance(1000);
      assert.equal(restarting.get('r')!.status.phase, 'succeeded');
      assert.ok(source.queries.slice(before).every((entry) => entry.query.after !== undefined && !source.forgotten.has(entry.query.after)));
    } finally {
      restarting.dispose();
    }
  });

  it('keeps the error of a 404 or 401 on the saved place, without reading the job again: a reread would not mend those', async () => {
    for (const status of [401, 404]) {
      const id = `g${status}`;
      source.add(id, 'training_started', { num_sequences: 4 });
      tracker.track(id);
      await settle();
      source.forgotten.add(tracker.get(id)!.status.lastEventId!);
      source.forgottenStatus = status;
      source.add(id, 'gradient_step', { loss: 1 });
      await clock.advance(1000);
      assert.match(tracker.get(id)!.connectionError ?? '', new RegExp(`${status} unknown event`));
      assert.equal(source.queries.filter((entry) => entry.id === id && entry.query.after === undefined).length, 1, 'only the first read started at the beginning');
    }
  });
});
