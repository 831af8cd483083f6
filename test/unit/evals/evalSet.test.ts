import * as assert from 'node:assert/strict';
import { evalSetHash, maxListedProblems, maxSampleLineChars, parseEvalSet, sampleHashId } from '../../../src/evals/model/evalSet';
import { evalLimits } from '../../../src/evals/model/evalModel';

const line = (value: unknown): string => JSON.stringify(value);
const user = (content: string): { role: string; content: string } => ({ role: 'user', content });

describe('eval set', () => {
  it('reads samples with their own ids, references, metadata and zero-based lines', () => {
    const text = [line({ id: 'q1', messages: [user('2+2?')], reference: '4', metadata: { topic: 'math' } }), '', line({ messages: [{ role: 'system', content: 'be brief' }, user('hi')] })].join('\n');
    const { samples, problems } = parseEvalSet(text);
    assert.deepEqual(problems, []);
    assert.equal(samples.length, 2);
    assert.deepEqual(samples[0], { id: 'q1', messages: [user('2+2?')], reference: '4', metadata: { topic: 'math' }, line: 0 });
    assert.equal(samples[1]!.line, 2);
    assert.match(samples[1]!.id, /^[0-9a-f]{16}$/);
  });

  it('gives a sample without an id a hash of its content that ignores key order and survives reordering', () => {
    const a = parseEvalSet(`${line({ messages: [{ role: 'user', content: 'x' }], reference: 'y' })}\n`).samples[0]!;
    const b = parseEvalSet(`\n\n${line({ reference: 'y', messages: [{ content: 'x', role: 'user' }] })}`).samples[0]!;
    assert.equal(a.id, b.id);
    assert.equal(a.id, sampleHashId([user('x') as never], 'y'));
    assert.notEqual(a.id, sampleHashId([user('x') as never], 'z'));
  });

  it('reads CRLF line endings', () => {
    const { samples } = parseEvalSet(`${line({ messages: [user('a')] })}\r\n${line({ messages: [user('b')] })}\r\n`);
    assert.deepEqual(
      samples.map((sample) => [sample.messages[0]!.content, sample.line]),
      [
        ['a', 0],
        ['b', 1],
      ],
    );
  });

  it('lists each bad line with its line number and a message, and goes on', () => {
    const text = [
      'not json',
      line([1, 2]),
      line({ messages: [] }),
      line({ messages: [{ role: 'robot', content: 'x' }] }),
      line({ messages: [user('ok')], reference: 5 }),
      line({ messages: [user('ok')], metadata: 'm' }),
      line({ id: 7, messages: [user('ok')] }),
      line({ id: 'same', messages: [user('a')] }),
      line({ id: 'same', messages: [user('b')] }),
      line({ messages: [user('fine')] }),
    ].join('\n');
    const { samples, problems } = parseEvalSet(text);
    assert.deepEqual(
      samples.map((sample) => sample.line),
      [7, 9],
    );
    assert.deepEqual(
      problems.map((problem) => problem.line),
      [0, 1, 2, 3, 4, 5, 6, 8],
    );
    assert.match(problems[0]!.message, /not JSON/);
    assert.match(problems[2]!.message, /empty/);
    assert.match(problems[3]!.message, /message 1: "role"/);
    assert.match(problems[4]!.message, /"reference" must be text/);
    assert.match(problems[7]!.message, /already the id of line 8/);
  });

  it('refuses a line longer than the cap without parsing it, and reads the next one', () => {
    const huge = `{"messages":[{"role":"user","content":"${'a'.repeat(maxSampleLineChars)}"}]}`;
    const { samples, problems } = parseEvalSet(`${huge}\n${line({ messages: [user('small')] })}`);
    assert.equal(samples.length, 1);
    assert.equal(problems[0]!.line, 0);
    assert.match(problems[0]!.message, /characters long, more than/);
  });

  it('refuses JSON nested too deep without overflowing the stack', () => {
    const deep = `{"messages":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const { samples, problems } = parseEvalSet(deep);
    assert.equal(samples.length, 0);
    assert.match(problems[0]!.message, /nested deeper/);
  });

  it('keeps __proto__ keys as plain data and never touches prototypes', () => {
    const { samples } = parseEvalSet('{"messages":[{"role":"user","content":"x","__proto__":{"polluted":1}}],"metadata":{"__proto__":{"polluted":2}}}');
    assert.equal(samples.length, 1);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal((samples[0]!.messages[0] as unknown as Record<string, unknown>).polluted, undefined);
    assert.equal(Object.getPrototypeOf(samples[0]!.metadata), Object.prototype);
  });

  it('stops at the most samples a set may hold, saying so once', () => {
    const text = Array.from({ length: evalLimits.samples + 5 }, (_, at) => line({ id: `s${at}`, messages: [user('q')] })).join('\n');
    const { samples, problems } = parseEvalSet(text);
    assert.equal(samples.length, evalLimits.samples);
    assert.equal(problems.length, 1);
    assert.equal(problems[0]!.line, evalLimits.samples);
  });

  it('lists a bounded number of problems and counts the rest', () => {
    const { problems } = parseEvalSet(Array.from({ length: 500 }, () => 'x').join('\n'));
    assert.equal(problems.length, maxListedProblems + 1);
    assert.match(problems[maxListedProblems]!.message, /400 more problems/);
  });

  it('hashes a set by its samples in order', () => {
    const { samples } = parseEvalSet([line({ id: 'a', messages: [user('1')] }), line({ id: 'b', messages: [user('2')] })].join('\n'));
    assert.equal(evalSetHash(samples), evalSetHash(samples.map((sample) => ({ ...sample }))));
    assert.notEqual(evalSetHash(samples), evalSetHash([...samples].reverse()));
  });
});
