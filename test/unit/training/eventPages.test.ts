import * as assert from 'node:assert/strict';
import type { Page, TrainingJobEvent } from '../../../src/platform/client/types';
import { readNewEvents, RecentCursors, type FetchEventPage } from '../../../src/training/model/eventPages';
import { EventWindow } from '../../../src/training/model/eventWindow';

const ev = (id: string, type = 'gradient_step'): TrainingJobEvent => ({ id, type, data: {} });
const page = (ids: string[], hasMore: boolean, lastId = ids.at(-1) ?? ''): Page<TrainingJobEvent> => ({
  object: 'list',
  data: ids.map((id) => ev(id)),
  first_id: ids[0] ?? '',
  last_id: lastId,
  has_more: hasMore,
});
const signal = new AbortController().signal;

/** Answers the queued pages in order and records the cursors asked for. */
function scripted(pages: Page<TrainingJobEvent>[]) {
  const asked: (string | undefined)[] = [];
  const fetchPage: FetchEventPage = async (after) => {
    asked.push(after);
    const next = pages.shift();
    if (!next) throw new Error('asked for more pages than scripted');
    return next;
  };
  return { fetchPage, asked };
}

describe('reading new events by cursor', () => {
  it("follows has_more page by page with each page's last id", async () => {
    const { fetchPage, asked } = scripted([page(['a', 'b'], true), page(['c', 'd'], true), page(['e'], false)]);
    const read = await readNewEvents(fetchPage, undefined, () => false, new RecentCursors(), { maxPages: 10 }, signal);
    assert.deepEqual(
      read.events.map((event) => event.id),
      ['a', 'b', 'c', 'd', 'e'],
    );
    assert.deepEqual(asked, [undefined, 'b', 'd']);
    assert.equal(read.fault, undefined);
    assert.equal(read.more, false);
  });

  it('reads at most the page cap and says more is waiting', async () => {
    const pages = Array.from({ length: 20 }, (_, index) => page([`e${index}`], true));
    const { fetchPage, asked } = scripted(pages);
    const read = await readNewEvents(fetchPage, 'start', () => false, new RecentCursors(), { maxPages: 10 }, signal);
    assert.equal(asked.length, 10);
    assert.equal(read.more, true);
    assert.equal(read.fault, undefined);
  });

  it("tolerates the cursor's own event at the head of a page", async () => {
    const { fetchPage } = scripted([page(['x', 'y', 'z'], false)]);
    const read = await readNewEvents(fetchPage, 'x', (id) => id === 'x', new RecentCursors(), { maxPages: 10 }, signal);
    assert.deepEqual(
      read.events.map((event) => event.id),
      ['y', 'z'],
    );
    assert.equal(read.fault, undefined);
  });

  it('counts a page of nothing but known events as nothing new, and stops', async () => {
    const { fetchPage, asked } = scripted([page(['a', 'b'], true)]);
    const read = await readNewEvents(fetchPage, 'b', (id) => id === 'a' || id === 'b', new RecentCursors(), { maxPages: 10 }, signal);
    assert.deepEqual(read.events, []);
    assert.equal(read.fault, 'redelivered');
    assert.equal(asked.length, 1);
  });

  it('takes what follows the cursor from a page that repeats earlier events, and nothing it cannot place', async () => {
    const known = new Set(['a', 'b', 'c']);
    const withAnchor = scripted([page(['a', 'b', 'c', 'd'], false)]);
    const read = await readNewEvents(withAnchor.fetchPage, 'c', (id) => known.has(id), new RecentCursors(), { maxPages: 10 }, signal);
    assert.deepEqual(
      read.events.map((event) => event.id),
      ['d'],
    );
    assert.equal(read.fault, 'redelivered');
    // The window keeps 'a' (the first event) but no longer 'old2'…: an old page that holds 'a' is
    // recognised, and its unknown events are not mistaken for new ones.
    const oldPage = scripted([page(['a', 'old2', 'old3'], true)]);
    const again = await readNewEvents(oldPage.fetchPage, 'z', (id) => id === 'a', new RecentCursors(), { maxPages: 10 }, signal);
    assert.deepEqual(again.events, []);
    assert.equal(again.fault, 'redelivered');
  });

  it('stops at a cursor already followed, in this poll or a recent one', async () => {
    const recent = new RecentCursors();
    const first = scripted([page(['n1'], true, 'A'), page(['n2'], true, 'B'), page(['n3'], true, 'A')]);
    const read = await readNewEvents(first.fetchPage, undefined, () => false, recent, { maxPages: 10 }, signal);
    assert.deepEqual(first.asked, [undefined, 'A', 'B']);
    assert.equal(read.fault, 'repeated-cursor');
    const second = scripted([page(['n4'], true, 'B')]);
    const next = await readNewEvents(second.fetchPage, 'n3', () => false, recent, { maxPages: 10 }, signal);
    assert.equal(second.asked.length, 1);
    assert.equal(next.fault, 'repeated-cursor');
  });

  it('stops when has_more comes with nothing to follow', async () => {
    const { fetchPage } = scripted([page([], true, '')]);
    const read = await readNewEvents(fetchPage, 'a', () => false, new RecentCursors(), { maxPages: 10 }, signal);
    assert.equal(read.fault, 'no-cursor');
  });

  it('remembers a bounded number of cursors', () => {
    const recent = new RecentCursors(3);
    for (const cursor of ['a', 'b', 'c', 'd']) recent.add(cursor);
    assert.equal(recent.size, 3);
    assert.equal(recent.has('a'), false);
    assert.equal(recent.has('d'), true);
  });
});

describe('event window', () => {
  it('keeps the newest events up to its limit, plus the first and the terminal one', () => {
    const window = new EventWindow(5);
    window.append([ev('start', 'training_started'), ...Array.from({ length: 10 }, (_, index) => ev(`s${index}`)), ev('end', 'training_ended'), ev('late1'), ev('late2')]);
    assert.deepEqual(
      window.events.map((event) => event.id),
      ['start', 's9', 'end', 'late1', 'late2'],
    );
    assert.equal(window.dropped, 9);
    assert.equal(window.has('s0'), false);
    assert.equal(window.has('s9'), true);
  });

  it('takes each id once and gives a new list after each change', () => {
    const window = new EventWindow(10);
    window.append([ev('a'), ev('b')]);
    const before = window.events;
    window.append([ev('b'), ev('c')]);
    assert.notEqual(window.events, before);
    assert.deepEqual(
      window.events.map((event) => event.id),
      ['a', 'b', 'c'],
    );
    assert.equal(window.setLimit(4), false);
    window.append([ev('d')]);
    assert.equal(window.setLimit(1.5), true);
    assert.equal(window.events.length, 3, 'never below room for the first, the terminal and one more');
  });
});
