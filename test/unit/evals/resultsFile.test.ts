import * as assert from 'node:assert/strict';
import type { AnswerRecord } from '../../../src/evals/model/evalModel';
import { mergeAnswers, parseRunFile, serializeRunFile, sortAnswers } from '../../../src/evals/model/resultsFile';
import { answer, checkpoint, run } from './evalFixtures';

const [a, b] = [checkpoint(10), checkpoint(20)];

function sampleRun() {
  return run(
    [a, b],
    [
      answer(a.id, 's1', 0, { exact: 1 }, { finishReason: 'stop', latencyMs: 120, usage: { promptTokens: 10, completionTokens: 3 } }),
      answer(a.id, 's2', 0, { exact: 0 }),
      answer(b.id, 's1', 0, {}, { text: undefined, error: 'HTTP 500: try again' }),
    ],
  );
}

describe('results file', () => {
  it('round-trips a run through its text', () => {
    const original = sampleRun();
    const parsed = parseRunFile(serializeRunFile(original));
    assert.ok(parsed.ok);
    assert.deepEqual(parsed.run, original);
    assert.deepEqual(parsed.notes, []);
  });

  it('writes readable JSON: 2-space indent, header first, a final newline', () => {
    const text = serializeRunFile(sampleRun());
    assert.ok(text.startsWith('{\n  "kind": "rl-studio-eval",\n  "version": 1,\n'));
    assert.ok(text.endsWith('}\n'));
    assert.ok(text.indexOf('"updatedAt"') < text.indexOf('"answers"'));
  });

  it('changes only the lines of the answer that changed', () => {
    const before = serializeRunFile(sampleRun()).split('\n');
    const changed = mergeAnswers(sampleRun(), [answer(a.id, 's2', 0, { exact: 1 })]);
    const after = serializeRunFile(changed).split('\n');
    assert.equal(after.length, before.length);
    const differing = before.map((line, at) => (line === after[at] ? -1 : at)).filter((at) => at >= 0);
    assert.equal(differing.length, 1);
    assert.match(after[differing[0]!]!, /"exact": 1/);
  });

  it('writes scores in the run’s scorer order whatever order they were recorded in', () => {
    const made = run([a], [answer(a.id, 's1', 0, { zeta: 1, exact: 0, alpha: 1 })]);
    made.scorers = [
      { name: 'zeta', spec: { kind: 'validJson' } },
      { name: 'exact', spec: { kind: 'exactMatch' } },
    ];
    const text = serializeRunFile(made);
    assert.ok(text.indexOf('"zeta": 1') < text.indexOf('"exact": 0') && text.indexOf('"exact": 0') < text.indexOf('"alpha": 1'));
  });

  it('merges by key and keeps the order of models, samples and draws', () => {
    const merged = mergeAnswers(sampleRun(), [answer(b.id, 's1', 0, { exact: 1 }), answer(b.id, 's0', 1, { exact: 1 }), answer(b.id, 's0', 0, { exact: 1 }), answer(a.id, 's3', 0, { exact: 1 })], {
      sampleOrder: ['s0', 's1', 's2', 's3'],
      updatedAt: '2026-02-02T00:00:00.000Z',
    });
    assert.deepEqual(
      merged.answers.map((item) => [item.model === a.id ? 'a' : 'b', item.sample, item.draw, item.error ?? item.scores.exact]),
      [
        ['a', 's1', 0, 1],
        ['a', 's2', 0, 0],
        ['a', 's3', 0, 1],
        ['b', 's0', 0, 1],
        ['b', 's0', 1, 1],
        ['b', 's1', 0, 1],
      ],
    );
    assert.equal(merged.updatedAt, '2026-02-02T00:00:00.000Z');
  });

  it('sorts answers of models the run does not list after its own', () => {
    const sorted = sortAnswers([answer('zzz', 's1', 0, {}), answer(b.id, 's1', 0, {}), answer(a.id, 's1', 0, {})], [a, b]);
    assert.deepEqual(
      sorted.map((item) => item.model),
      [a.id, b.id, 'zzz'],
    );
  });

  it('refuses what is not a results file, in words', () => {
    const refuse = (text: string, pattern: RegExp): void => {
      const parsed = parseRunFile(text);
      assert.ok(!parsed.ok);
      assert.match(parsed.error, pattern);
      assert.match(parsed.error, /^The results file cannot be read: /);
    };
    refuse('nope', /not JSON/);
    refuse('{"kind": "other"}', /not an RL Studio evaluation/);
    refuse('{"kind": "rl-studio-eval", "version": 2}', /version 2/);
    const valid = JSON.parse(serializeRunFile(sampleRun())) as Record<string, unknown>;
    refuse(JSON.stringify({ ...valid, parameters: { temperature: 1 } }), /"parameters" needs/);
    refuse(JSON.stringify({ ...valid, parameters: { temperature: 1, seed: 1, maxTokens: 1, n: 99 } }), /from 1 to 16/);
    refuse(JSON.stringify({ ...valid, models: [{ id: 'm', label: 'm', kind: 'robot', api: 'training' }] }), /checkpoint, base or catalogue/);
    refuse(JSON.stringify({ ...valid, scorers: [{ name: 'x', spec: { kind: 'magic' } }] }), /scorer "x": its "kind" must be/);
    refuse(`{"kind":"rl-studio-eval","version":1,"set":${'['.repeat(100_000)}${']'.repeat(100_000)}}`, /nested deeper/);
  });

  it('leaves out malformed or repeated answers with a note, and keeps the rest', () => {
    const valid = JSON.parse(serializeRunFile(sampleRun())) as { answers: unknown[] };
    valid.answers.push(
      { model: a.id, sample: 's9', draw: -1, key: 'k', text: 'x', scores: {} },
      { ...(valid.answers[0] as object) },
      { model: a.id, sample: 's9', draw: 0, key: 'k2', scores: { exact: 'high' }, text: 'x' },
      'junk',
    );
    const parsed = parseRunFile(JSON.stringify(valid));
    assert.ok(parsed.ok);
    assert.equal(parsed.run.answers.length, 3);
    assert.deepEqual(
      parsed.notes.map((note) => note.slice(0, 9)),
      ['Answer 4 ', 'Answer 5 ', 'Answer 6 ', 'Answer 7 '],
    );
    assert.match(parsed.notes[1]!, /key of an earlier answer/);
    assert.match(parsed.notes[2]!, /neither a number nor an error/);
  });

  it('keeps a "__proto__" scorer name as data, cuts long answers, and leaves prototypes alone', () => {
    const valid = JSON.parse(serializeRunFile(sampleRun())) as { answers: Record<string, unknown>[] };
    valid.answers[0]!.text = 'x'.repeat(300_000);
    const text = JSON.stringify(valid).replace('"scores":{"exact":1}', '"scores":{"exact":1,"__proto__":0.5}');
    const parsed = parseRunFile(text);
    assert.ok(parsed.ok);
    const first = parsed.run.answers[0] as AnswerRecord;
    assert.equal(Object.getPrototypeOf(first.scores), Object.prototype);
    assert.deepEqual(Object.keys(first.scores), ['exact', '__proto__']);
    assert.equal(first.text!.length, 200_000);
    assert.equal(({} as Record<string, unknown>).exact, undefined);
    assert.match(serializeRunFile(parsed.run), /"__proto__": 0.5/);
  });
});
