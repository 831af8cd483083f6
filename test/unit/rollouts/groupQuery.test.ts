import * as assert from 'node:assert/strict';
import type { GroupSummary } from '../../../src/rollouts/model/groupSummaryShape';
import {
  GroupQueryCache,
  cachedQueries,
  matchesFilter,
  maxCountedMetadataKeys,
  meanCompletionLength,
  metadataChoices,
  queryKey,
  runGroupQuery,
  toGroupRow,
} from '../../../src/rollouts/model/groupQuery';
import { defaultQuery, emptyFilter, maxMetadataChoiceKeys, maxMetadataChoices, maxRowsPerPage, type GroupFilter, type GroupQuery, type SortColumn } from '../../../src/rollouts/model/inspectorModel';
import { choice, group, groupOfRewards, trajectory } from './rolloutFixtures';
import { summariesOf, summaryOf } from './viewFixtures';

function query(filter: Partial<GroupFilter> = {}, column: SortColumn = 'index', descending = false): GroupQuery {
  return { filter: { ...emptyFilter, ...filter }, sort: { column, descending } };
}

function indices(groups: readonly GroupSummary[], q: GroupQuery, text?: Uint8Array): number[] {
  return [...runGroupQuery(groups, q, text)];
}

/**
 * Five groups with known figures:
 * 0: rewards [0, 1]      mean 0.5  std 0.5    metadata step 1, split "train"   metric score 0.1 / 0.9
 * 1: rewards [1, 1, 1]   mean 1    std 0      noSignal, step 2, split "test"   one exception
 * 2: rewards [0.2, 0.4]  mean 0.3  std 0.1    step 1, split "train", a truncated (finish "length") choice
 * 3: rewards [0.5]       mean 0.5  std 0      noSignal, step true, split null
 * 4: rewards [0, 0, 1]   mean 1/3             step 1, 2 exceptions
 */
function fiveGroups(): GroupSummary[] {
  const scored = (reward: number, score: number, text: string) => ({ ...trajectory(reward, choice(text)), metrics: { score } });
  return summariesOf([
    group([scored(0, 0.1, 'short answer here'), scored(1, 0.9, 'a much longer answer than the other one')], { metadata: { step: 1, split: 'train' } }),
    groupOfRewards([1, 1, 1], { metadata: { step: 2, split: 'test' }, exceptions: [{ type: 'E', message: 'm' }] }),
    group([trajectory(0.2, choice('cut off in the middle of a', 'length')), trajectory(0.4, choice('a whole answer.'))], { metadata: { step: 1, split: 'train' } }),
    groupOfRewards([0.5], { metadata: { step: true, split: null } }),
    groupOfRewards([0, 0, 1], { metadata: { step: 1 }, exceptions: [{}, {}] }),
  ]);
}

describe('group queries', () => {
  const groups = fiveGroups();

  it('keeps the groups that carry every flag asked', () => {
    assert.deepEqual(indices(groups, query({ flags: ['noSignal'] })), [1, 3]);
    assert.deepEqual(indices(groups, query({ flags: ['noSignal', 'exceptions'] })), [1]);
    assert.deepEqual(indices(groups, query({ flags: ['truncated'] })), [2]);
  });

  it('keeps a group when some trajectory lies in each range, bounds included', () => {
    assert.deepEqual(indices(groups, query({ ranges: [{ series: 'reward', min: 0.4, max: 0.5 }] })), [2, 3]);
    assert.deepEqual(indices(groups, query({ ranges: [{ series: 'reward', min: 1, max: 1 }] })), [0, 1, 4]);
    assert.deepEqual(indices(groups, query({ ranges: [{ series: 'metric:score', min: 0.5, max: 1 }] })), [0], 'a metric only group 0 has');
    assert.deepEqual(indices(groups, query({ ranges: [{ series: 'metric:correct', min: 1, max: 1 }] })), [1, 2, 3, 4]);
    assert.deepEqual(indices(groups, query({ ranges: [{ series: 'metric:missing', min: -1e9, max: 1e9 }] })), []);
    const longest = 'a much longer answer than the other one'.length;
    assert.deepEqual(indices(groups, query({ ranges: [{ series: 'completionLength', min: longest, max: longest }] })), [0]);
    assert.deepEqual(
      indices(
        groups,
        query({
          ranges: [
            { series: 'reward', min: 0, max: 0 },
            { series: 'reward', min: 1, max: 1 },
          ],
        }),
      ),
      [0, 4],
      'every range must hold, each by some trajectory',
    );
  });

  it("compares metadata by the value's text: numbers, booleans and null as JSON, strings as they are", () => {
    assert.deepEqual(indices(groups, query({ metadata: [{ key: 'step', value: '1' }] })), [0, 2, 4]);
    assert.deepEqual(indices(groups, query({ metadata: [{ key: 'step', value: 'true' }] })), [3]);
    assert.deepEqual(indices(groups, query({ metadata: [{ key: 'split', value: 'null' }] })), [3]);
    assert.deepEqual(indices(groups, query({ metadata: [{ key: 'split', value: '"train"' }] })), []);
    assert.deepEqual(
      indices(
        groups,
        query({
          metadata: [
            { key: 'step', value: '1' },
            { key: 'split', value: 'train' },
          ],
        }),
      ),
      [0, 2],
    );
    assert.deepEqual(indices(groups, query({ metadata: [{ key: 'toString', value: 'function toString() { [native code] }' }] })), [], 'inherited keys are not metadata');
  });

  it("keeps the text search's matches, and none when the search has not run", () => {
    const found = Uint8Array.from([0, 1, 0, 1, 1]);
    assert.deepEqual(indices(groups, query({ text: 'x' }), found), [1, 3, 4]);
    assert.deepEqual(indices(groups, query({ text: 'x', flags: ['noSignal'] }), found), [1, 3]);
    assert.deepEqual(indices(groups, query({ text: 'x' })), []);
    assert.deepEqual(indices(groups, query({}), Uint8Array.from([0, 0, 0, 0, 0])), [0, 1, 2, 3, 4], 'no text: the mask is not used');
    assert.equal(matchesFilter(groups[1]!, 1, { ...emptyFilter, text: 'x' }, found), true);
    assert.equal(matchesFilter(groups[2]!, 2, { ...emptyFilter, text: 'x' }, found), false);
  });

  it('sorts by each column both ways, ties in file order', () => {
    const expected: Record<SortColumn, number[]> = {
      index: [0, 1, 2, 3, 4],
      trajectories: [3, 0, 2, 1, 4],
      mean: [2, 4, 0, 3, 1],
      std: [1, 3, 2, 4, 0],
      min: [0, 4, 2, 3, 1],
      max: [2, 3, 0, 1, 4],
      exceptions: [0, 2, 3, 1, 4],
      completionLength: [2, 0, 1, 3, 4],
    };
    for (const column of Object.keys(expected) as SortColumn[]) assert.deepEqual(indices(groups, query({}, column)), expected[column], `${column} ascending`);
    const descending: Record<SortColumn, number[]> = {
      index: [4, 3, 2, 1, 0],
      trajectories: [1, 4, 0, 2, 3],
      mean: [1, 0, 3, 4, 2],
      std: [0, 4, 2, 1, 3],
      min: [1, 3, 2, 0, 4],
      max: [0, 1, 4, 3, 2],
      exceptions: [4, 1, 0, 2, 3],
      completionLength: [1, 3, 4, 0, 2],
    };
    for (const column of Object.keys(descending) as SortColumn[]) assert.deepEqual(indices(groups, query({}, column, true)), descending[column], `${column} descending`);
  });

  it("gives the mean completion length of a group's trajectories", () => {
    assert.equal(meanCompletionLength(groups[0]!), ('short answer here'.length + 'a much longer answer than the other one'.length) / 2);
  });

  it('makes a row of a summary, metadata as texts', () => {
    const row = toGroupRow(groups[3]!);
    assert.deepEqual(row, {
      index: 3,
      line: 3,
      trajectories: 1,
      mean: 0.5,
      std: 0,
      min: 0.5,
      max: 0.5,
      completionLength: groups[3]!.columns[3],
      exceptions: 0,
      flags: ['noSignal'],
      metadata: { step: 'true', split: 'null' },
    });
    const hostile = toGroupRow(summaryOf(groupOfRewards([1], { metadata: JSON.parse('{"__proto__": "x", "constructor": 1}') })));
    assert.deepEqual(Object.keys(hostile.metadata), ['__proto__', 'constructor']);
    assert.equal(Object.getPrototypeOf(hostile.metadata), Object.prototype);
  });

  it('names equal queries alike whatever the order of their flags, and different queries apart', () => {
    assert.equal(queryKey(query({ flags: ['truncated', 'noSignal'] })), queryKey(query({ flags: ['noSignal', 'truncated'] })));
    assert.notEqual(queryKey(query({}, 'mean')), queryKey(query({}, 'mean', true)));
    assert.notEqual(queryKey(query({ text: 'a' })), queryKey(query({ text: 'A' })));
  });
});

describe('group query cache', () => {
  const groups = fiveGroups();

  it('pages through one result: start clamped, count capped, the total of all matches', () => {
    const cache = new GroupQueryCache();
    const page = cache.page(groups, query({}, 'mean', true), 1, 2, 7);
    assert.deepEqual(
      page.rows.map((row) => row.index),
      [0, 3],
    );
    assert.equal(page.total, 5);
    assert.equal(page.start, 1);
    assert.equal(page.version, 7);
    assert.deepEqual(cache.page(groups, defaultQuery, -5, 1, 7).start, 0);
    const beyond = cache.page(groups, defaultQuery, 99, 10, 7);
    assert.deepEqual([beyond.start, beyond.rows.length, beyond.total], [5, 0, 5]);
    assert.equal(cache.page(groups, defaultQuery, Number.NaN, Number.POSITIVE_INFINITY, 7).rows.length, 0, 'a count that is not finite asks nothing');
    assert.equal(cache.page(groups, defaultQuery, 0.7, 2.9, 7).rows.length, 2);
  });

  it('caps a page at maxRowsPerPage rows', () => {
    const many = Array.from({ length: maxRowsPerPage + 20 }, () => groups[0]!);
    const page = new GroupQueryCache().page(many, defaultQuery, 0, 10_000, 1);
    assert.equal(page.rows.length, maxRowsPerPage);
    assert.equal(page.total, maxRowsPerPage + 20);
  });

  it('runs a query once per version: later pages reuse the result, a new version runs it again', () => {
    const cache = new GroupQueryCache();
    const q = query({ flags: ['noSignal'] }, 'mean');
    const first = cache.positions(groups, q, 1);
    assert.equal(cache.positions(groups, { filter: { ...q.filter, flags: ['noSignal'] }, sort: { ...q.sort } }, 1), first, 'an equal query reuses the result');
    assert.notEqual(cache.positions(groups, q, 2), first, 'a new version runs it again');
    const fewer = groups.slice(0, 2);
    assert.deepEqual([...cache.positions(fewer, q, 2)], [1], 'so does a different number of groups');
  });

  it('runs a text query again for a new search result', () => {
    const cache = new GroupQueryCache();
    const q = query({ text: 'x' });
    const before = Uint8Array.from([1, 0, 0, 0, 0]);
    assert.deepEqual([...cache.positions(groups, q, 1, before)], [0]);
    assert.deepEqual([...cache.positions(groups, q, 1, Uint8Array.from([0, 0, 0, 0, 1]))], [4]);
    assert.deepEqual([...cache.positions(groups, q, 1, before)], [0]);
  });

  it(`keeps the last ${cachedQueries} results, the least recently used dropped first`, () => {
    const cache = new GroupQueryCache();
    const columns: SortColumn[] = ['mean', 'std', 'min', 'max', 'exceptions'];
    const results = columns.map((column) => cache.positions(groups, query({}, column), 1));
    // mean was the first of five: dropped; std is still kept.
    assert.notEqual(cache.positions(groups, query({}, 'mean'), 1), results[0]);
    assert.equal(cache.positions(groups, query({}, 'exceptions'), 1), results[4]);
    assert.notEqual(cache.positions(groups, query({}, 'std'), 1), results[1], 'std was dropped when mean came back');
  });
});

describe('metadata choices', () => {
  it("lists each key's values most frequent first, with the groups not listed", () => {
    const choices = metadataChoices(fiveGroups());
    assert.deepEqual(choices, [
      {
        key: 'step',
        values: [
          { value: '1', groups: 3 },
          { value: '2', groups: 1 },
          { value: 'true', groups: 1 },
        ],
        otherGroups: 0,
      },
      {
        key: 'split',
        values: [
          { value: 'train', groups: 2 },
          { value: 'test', groups: 1 },
          { value: 'null', groups: 1 },
        ],
        otherGroups: 0,
      },
    ]);
  });

  it('keeps at most maxMetadataChoices values and maxMetadataChoiceKeys keys, keys that sort the groups first', () => {
    const groups = summariesOf(
      Array.from({ length: 200 }, (_, at) => {
        const metadata: Record<string, unknown> = { id: `g${at}`, bucket: at % 30 };
        // 26 keys in all, at most 16 per group (what a summary keeps): k0..k11 on even groups, j0..j11 on odd ones.
        for (let key = 0; key < 12; key++) metadata[`${at % 2 === 0 ? 'k' : 'j'}${key}`] = at % 3;
        return groupOfRewards([1], { metadata });
      }),
    );
    const choices = metadataChoices(groups);
    assert.equal(choices.length, maxMetadataChoiceKeys);
    const bucket = choices.find((entry) => entry.key === 'bucket')!;
    assert.equal(bucket.values.length, maxMetadataChoices);
    // 200 groups in 30 buckets: buckets 0..19 hold 7 each (140), the other 10 hold 6 each (60).
    assert.equal(bucket.otherGroups, 60);
    assert.equal(bucket.values[0]!.groups, 7);
    // "id" (every value differs) covers only 20 groups, fewer than any other key: it is left out. Equal keys come in the order first seen.
    assert.deepEqual(
      choices.map((entry) => entry.key),
      ['bucket', ...Array.from({ length: 12 }, (_, key) => `k${key}`), 'j0', 'j1', 'j2'],
    );
  });

  it('counts a bounded number of distinct keys, whatever the file', () => {
    const groups = summariesOf(Array.from({ length: maxCountedMetadataKeys + 50 }, (_, at) => groupOfRewards([1], { metadata: { [`key${at}`]: 1 } })));
    const choices = metadataChoices(groups);
    assert.equal(choices.length, maxMetadataChoiceKeys);
    assert.ok(choices.every((entry) => Number(entry.key.slice(3)) < maxCountedMetadataKeys));
  });
});
