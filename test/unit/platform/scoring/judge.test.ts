import * as assert from 'node:assert/strict';
import { buildJudgeRequest, maxJudgedChars, parseJudgeVerdict } from '../../../../src/platform/scoring/judge';

describe('judge', () => {
  it('builds a request with the rubric, prompt, reference and answer, at temperature 0', () => {
    const request = buildJudgeRequest({ model: 'judge-model', rubric: 'Reward brevity.' }, { messages: [{ role: 'user', content: 'Capital of France?' }], reference: 'Paris' }, 'It is Paris.', 7);
    assert.equal(request.model, 'judge-model');
    assert.equal(request.temperature, 0);
    assert.equal(request.seed, 7);
    assert.equal(request.messages.length, 2);
    assert.match(request.messages[0]!.content, /Score: <a number from 0 to 10>/);
    const body = request.messages[1]!.content;
    for (const part of ['# Rubric\nReward brevity.', '[user]\nCapital of France?', '# Reference answer\nParis', '# Answer to grade\nIt is Paris.', 'Score: <0-10>'])
      assert.ok(body.includes(part), part);
  });

  it('leaves the reference out when there is none, and cuts a runaway answer', () => {
    const request = buildJudgeRequest({ model: 'j', rubric: 'r' }, { messages: [{ role: 'user', content: 'q' }] }, 'x'.repeat(maxJudgedChars * 3));
    const body = request.messages[1]!.content;
    assert.ok(!body.includes('Reference'));
    assert.ok(body.length < maxJudgedChars * 2);
  });

  it('reads the last "Score:" line as a fraction of 10', () => {
    assert.equal(parseJudgeVerdict('Good answer.\nScore: 7'), 0.7);
    assert.equal(parseJudgeVerdict('Reasoning: the format is "Score: 3".\n**Score:** 9/10'), 0.9);
    assert.equal(parseJudgeVerdict('Score: 2\nOn reflection...\nscore = 8.5\n'), 0.85);
    assert.equal(parseJudgeVerdict('Score: 0'), 0);
    assert.equal(parseJudgeVerdict('Score: 10.'), 1);
  });

  it('says clearly when there is no score or it is off the scale', () => {
    assert.deepEqual(parseJudgeVerdict('I think it is good.'), { error: 'the judge\'s reply has no final line "Score: <0-10>"; the answer is not scored' });
    assert.match((parseJudgeVerdict('Score: 11') as { error: string }).error, /outside the scale/);
    assert.ok('error' in (parseJudgeVerdict('Score: <0-10>') as object));
  });

  it('stays fast on a hostile reply (long lines of spaces after a score)', () => {
    const reply = `Score: 5${' '.repeat(1_000_000)}x\n`.repeat(3);
    assert.ok('error' in (parseJudgeVerdict(reply) as object));
  });
});
