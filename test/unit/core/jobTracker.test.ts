import * as assert from 'node:assert/strict';
import type { Page, PageQuery, TrainingJob, TrainingJobEvent } from '../../../src/api/types';
import { JobTracker, type JobChange, type JobSource } from '../../../src/core/jobTracker';
import { defaultPollPolicy } from '../../../src/core/pollPolicy';
import { FakeClock, settle } from './fakeClock';

/** A job whose events the test appends; it serves them by cursor like the platform does. */
class FakeJobSource implements JobSource {
  readonly timelines = new Map<string, TrainingJobEvent[]>();
  readonly queries: { id: string; query: PageQuery }[] = [];
  failNext = 0;
  missing = new Set<string>();
  private next = 0;

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
    return Promise.resolve(this.eventsPage(id, query));
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
    assert.deepEqual(changes.at(-1)?.newEvents.map((event) => event.type), ['training_started', 'gradient_step', 'gradient_step']);

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
    assert.deepEqual(record.events.map((event) => event.type), ['training_started', 'gradient_step', 'gradient_step']);
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

  it('forgets untracked jobs and ignores their late answers', async () => {
    tracker.track('j');
    tracker.untrack('j');
    await settle();
    assert.equal(tracker.get('j'), undefined);
    assert.equal(changes.filter((change) => change.id === 'j').length, 0);
  });
});
