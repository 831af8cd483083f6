import * as assert from 'node:assert/strict';
import { queryLimits, type GroupQuery } from '../../../src/rollouts/model/inspectorModel';
import { parseGroupQuery, parseGroupScope } from '../../../src/rollouts/model/queryParams';
import { maxSelectedGroups } from '../../../src/rollouts/protocol';
import { ProtocolError } from '../../../src/platform/pages/wire';

const valid: GroupQuery = {
  filter: {
    flags: ['noSignal', 'truncated'],
    ranges: [
      { series: 'reward', min: 0, max: 1 },
      { series: 'metric:score', min: -2.5, max: 2.5 },
    ],
    metadata: [{ key: 'step', value: '3' }],
    text: 'Paris',
  },
  sort: { column: 'completionLength', descending: true },
};

function withFilter(filter: Record<string, unknown>): unknown {
  return { ...valid, filter: { ...valid.filter, ...filter } };
}

function refused(raw: unknown, message: RegExp): void {
  assert.throws(
    () => parseGroupQuery(raw),
    (error) => error instanceof ProtocolError && message.test(error.message),
  );
}

describe('group query params', () => {
  it('gives back a valid query as a fresh object with only the known fields', () => {
    const raw = JSON.parse(JSON.stringify(valid)) as Record<string, unknown>;
    (raw.filter as Record<string, unknown>).extra = 'ignored';
    raw.more = 1;
    const parsed = parseGroupQuery(raw);
    assert.deepEqual(parsed, valid);
    assert.notEqual(parsed.filter, raw.filter);
  });

  it('drops a flag given twice', () => {
    assert.deepEqual(parseGroupQuery(withFilter({ flags: ['noSignal', 'noSignal'] })).filter.flags, ['noSignal']);
  });

  it('refuses what is not a query', () => {
    refused(null, /the query must be an object/);
    refused([], /the query must be an object/);
    refused({ filter: valid.filter }, /"sort" must be an object/);
    refused({ sort: valid.sort }, /"filter" must be an object/);
    refused({ ...valid, sort: { column: 'constructor', descending: false } }, /sort column must be one of/);
    refused({ ...valid, sort: { column: 'mean', descending: 'yes' } }, /"descending" must be true or false/);
  });

  it('refuses unknown flags and series, and numbers that are not finite', () => {
    refused(withFilter({ flags: ['nosignal'] }), /a flag must be one of/);
    refused(withFilter({ flags: 'noSignal' }), /"flags" must be a list/);
    refused(withFilter({ ranges: [{ series: 'rewards', min: 0, max: 1 }] }), /series must be/);
    refused(withFilter({ ranges: [{ series: 'metric:', min: 0, max: 1 }] }), /no name/);
    refused(withFilter({ ranges: [{ series: 'reward', min: Number.NaN, max: 1 }] }), /minimum must be a finite number/);
    refused(withFilter({ ranges: [{ series: 'reward', min: 0, max: Number.POSITIVE_INFINITY }] }), /maximum must be a finite number/);
    refused(withFilter({ ranges: [{ series: 'reward', min: '0', max: 1 }] }), /minimum must be a finite number/);
    refused(withFilter({ ranges: [{ series: 'reward', min: 2, max: 1 }] }), /minimum \(2\) is above its maximum \(1\)/);
    refused(withFilter({ metadata: [{ key: 'step', value: 3 }] }), /metadata value must be a text/);
    refused(withFilter({ text: undefined }), /search text must be a text/);
  });

  it('holds every list and text to queryLimits', () => {
    const range = { series: 'reward', min: 0, max: 1 };
    assert.equal(parseGroupQuery(withFilter({ ranges: Array(queryLimits.ranges).fill(range) })).filter.ranges.length, queryLimits.ranges);
    refused(withFilter({ ranges: Array(queryLimits.ranges + 1).fill(range) }), /at most 8/);
    refused(withFilter({ metadata: Array(queryLimits.metadata + 1).fill({ key: 'a', value: 'b' }) }), /at most 8/);
    refused(withFilter({ flags: Array(100).fill('noSignal') }), /at most 6/);
    assert.equal(parseGroupQuery(withFilter({ text: 'x'.repeat(queryLimits.textChars) })).filter.text.length, queryLimits.textChars);
    refused(withFilter({ text: 'x'.repeat(queryLimits.textChars + 1) }), /too long/);
    refused(withFilter({ metadata: [{ key: 'k'.repeat(queryLimits.keyChars + 1), value: '' }] }), /too long/);
    refused(withFilter({ metadata: [{ key: 'k', value: 'v'.repeat(queryLimits.valueChars + 1) }] }), /too long/);
    refused(withFilter({ ranges: [{ series: `metric:${'m'.repeat(queryLimits.keyChars + 1)}`, min: 0, max: 1 }] }), /too long/);
    // A huge sparse array is refused by its length, before anything is read of it.
    const sparse: unknown[] = [];
    sparse.length = 1e9;
    refused(withFilter({ ranges: sparse }), /1000000000 ranges/);
  });

  it('reads own properties only, never inherited ones', () => {
    refused(Object.create(valid) as unknown, /"sort" must be an object/);
    refused(withFilter({ metadata: [Object.create({ key: 'step', value: '3' }) as unknown] }), /metadata key must be a text/);
    const polluted = JSON.parse('{"filter": {"flags": [], "ranges": [], "metadata": [], "text": ""}, "sort": {"column": "index", "descending": false}, "__proto__": {"x": 1}}') as unknown;
    const parsed = parseGroupQuery(polluted);
    assert.equal(Object.getPrototypeOf(parsed), Object.prototype);
    refused(withFilter({ ranges: [{ series: 'reward', min: 0 }] }), /maximum must be a finite number/);
  });

  it('checks the groups an action names: positions once each, in file order, and at most the cap', () => {
    assert.deepEqual(parseGroupScope({ kind: 'selected', indices: [7, 2, 7, 0] }), { kind: 'selected', indices: [0, 2, 7] });
    assert.deepEqual(parseGroupScope({ kind: 'matching', query: valid }), { kind: 'matching', query: valid });
    for (const hostile of [
      { kind: 'selected', indices: [1, -1] },
      { kind: 'selected', indices: [1.5] },
      { kind: 'selected', indices: ['1'] },
      { kind: 'selected', indices: Array.from({ length: maxSelectedGroups + 1 }, (_, index) => index) },
      { kind: 'everything' },
      JSON.parse('{"__proto__": {"kind": "selected"}, "indices": [1]}') as unknown,
      null,
    ]) {
      assert.throws(
        () => parseGroupScope(hostile),
        (error) => error instanceof ProtocolError,
      );
    }
  });
});
