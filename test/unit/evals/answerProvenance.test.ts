import * as assert from 'node:assert/strict';
import { addProduced, answerDigest, countProvenance, digestInSlices, parseProvenanceRecord, serializeProvenanceRecord } from '../../../src/evals/model/answerProvenance';
import type { AnswerRecord } from '../../../src/evals/model/evalModel';
import { answer } from './evalFixtures';

describe('provenance of answers', () => {
  const base = answer('m1', 's1', 0, { exact: 1 }, { text: 'Paris' });

  it('digests what an answer says: the same answer the same, any changed field (scores included) another', () => {
    const digest = answerDigest(base);
    assert.match(digest, /^[0-9a-f]{32}$/);
    assert.equal(answerDigest({ ...base, scores: { exact: 1 } }), digest);
    const changed: AnswerRecord[] = [
      { ...base, text: 'Lyon' },
      { ...base, scores: { exact: 0 } },
      { ...base, scores: { exact: 1, judge: 1 } },
      { ...base, model: 'm2' },
      { ...base, sample: 's2' },
      { ...base, draw: 1 },
      { ...base, key: 'other' },
      { ...base, error: 'timeout' },
      { ...base, finishReason: 'length' },
      // Fields cannot trade characters: "ab"+"c" is not "a"+"bc".
      { ...base, model: 'm1s', sample: '1' },
    ];
    for (const other of changed) assert.notEqual(answerDigest(other), digest, JSON.stringify(other));
  });

  it('counts the answers produced here against those that came with the file', () => {
    const answers = [base, { ...base, key: 'k2' }, { ...base, key: 'k3' }];
    const digests = answers.map(answerDigest);
    assert.deepEqual(countProvenance(digests, new Set([digests[1]!])), { total: 3, producedHere: 1, fromFile: 2 });
    assert.deepEqual(countProvenance(digests, new Set()), { total: 3, producedHere: 0, fromFile: 3 });
  });

  it('reads its record back, and an unreadable or forged record as empty', () => {
    const digests = [answerDigest(base), answerDigest({ ...base, key: 'k2' })];
    assert.deepEqual([...parseProvenanceRecord(serializeProvenanceRecord(digests))], digests);
    assert.equal(parseProvenanceRecord('not json').size, 0);
    assert.equal(parseProvenanceRecord('{"version":2,"digests":[]}').size, 0);
    assert.deepEqual([...parseProvenanceRecord(JSON.stringify({ version: 1, digests: ['short', 42, digests[0]] }))], [digests[0]]);
  });

  it('adds to a record in place and drops the oldest past its bound', () => {
    const record = new Set(['a', 'b', 'c']);
    addProduced(record, ['d', 'a'], 3);
    assert.deepEqual([...record], ['c', 'd', 'a']);
  });

  it('digests a long run a slice per turn of the event loop', async () => {
    const answers = Array.from({ length: 5_000 }, (_, at) => ({ ...base, key: `k${at}` }));
    let turns = 0;
    const ticking = setInterval(() => turns++, 0);
    try {
      const digests = await digestInSlices(answers);
      assert.equal(digests.length, answers.length);
      assert.equal(digests[4_999], answerDigest(answers[4_999]!));
      assert.ok(turns > 0, 'other work ran between the slices');
    } finally {
      clearInterval(ticking);
    }
  });
});
