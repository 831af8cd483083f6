/**
 * Hostile trajectory files against re-scoring with another reward (Try a Reward): a line longer
 * than any group is read, lines of garbage, a group of 100,000 trajectories with 1 MB answers, and
 * a file of more than a million groups. Each must end in a comparison within its bounds (groups
 * kept for the page, trajectories per group, characters of an answer, problems listed) with the
 * heap and the event loop within theirs, never an exception.
 */
import { strict as assert } from 'node:assert';
import { memorySource } from '../../src/rollouts/model/fileSource';
import { rescoreFile, rescoringLimits, type AnswerToScore } from '../../src/rollouts/model/rescoring';
import { comparisonLimits } from '../../src/rollouts/model/rewardComparison';
import { TextGroupFile } from '../../src/rollouts/model/textGroupFile';
import { scoreBuiltin } from '../../src/platform/scoring/builtinScorers';
import { defaultMaxLineBytes } from '../../src/platform/kit/sourceLines';
import type { RegexMatcher } from '../../src/platform/scoring/regexMatcher';
import { measure } from './support/measure';

const exactMatch = (item: AnswerToScore) => scoreBuiltin({ kind: 'exactMatch' }, item, item.answer, {} as RegexMatcher);

function fileOf(bytes: Uint8Array): TextGroupFile {
  return new TextGroupFile(
    memorySource(() => bytes),
    'jsonl',
  );
}

describe('fault: re-scoring a hostile trajectory file', function () {
  this.timeout(120_000);

  it('a line longer than any group, and lines of garbage: each a problem, the groups around them compared', async () => {
    const good = JSON.stringify({
      trajectories: [
        { reward: 1, messages_and_choices: [{ role: 'assistant', content: '4' }], metadata: { answer: '4' } },
        { reward: 0, metadata: { answer: '4' } },
      ],
    });
    const garbage = ['{', '[]', '{"trajectories": 5}', 'null', '\u0000\u0001\u0002', '['.repeat(100_000), '"just text"'];
    const encoder = new TextEncoder();
    const head = encoder.encode(`${good}\n${garbage.join('\n')}\n`);
    // One line just past the most a group may take.
    const long = new Uint8Array(defaultMaxLineBytes + 16).fill(0x78);
    const tail = encoder.encode(`\n${good}\n`);
    const bytes = new Uint8Array(head.length + long.length + tail.length);
    bytes.set(head, 0);
    bytes.set(long, head.length);
    bytes.set(tail, head.length + long.length);
    const { result, measurement } = await measure(() => rescoreFile(fileOf(bytes), { referenceKey: 'answer', score: exactMatch }));
    assert.equal(result.totals.groups, 2);
    assert.equal(result.unreadable, garbage.length + 1);
    assert.ok(result.problems.some((problem) => /more than are read/.test(problem.message)));
    assert.ok(result.problems.every((problem) => problem.message.length <= 300));
    assert.ok(measurement.maxEventLoopDelayMs < 1_000, `stalled ${measurement.maxEventLoopDelayMs} ms`);
  });

  it('a group of 100,000 trajectories with 1 MB answers: 4,096 scored, 32 kept, each answer cut', async () => {
    const answer = 'x'.repeat(1_000_000);
    const trajectory = JSON.stringify({ reward: 0.5, messages_and_choices: [{ role: 'assistant', content: answer }], metadata: { answer: 'x' } });
    const small = JSON.stringify({ reward: 0.5, messages_and_choices: [{ role: 'assistant', content: 'x' }], metadata: { answer: 'x' } });
    // The first trajectories carry the long answers; the rest are small, so the line stays within what is read.
    const line = `{"trajectories":[${[...Array<string>(8).fill(trajectory), ...Array<string>(99_992).fill(small)].join(',')}]}\n`;
    const bytes = new TextEncoder().encode(line);
    const { result, measurement } = await measure(() => rescoreFile(fileOf(bytes), { referenceKey: 'answer', score: exactMatch }));
    assert.equal(result.totals.trajectories, rescoringLimits.trajectoriesPerGroup);
    const kept = result.groups[0]!.kept;
    assert.equal(kept.length, comparisonLimits.keptTrajectories);
    assert.ok(kept.every((item) => item.answer.length <= comparisonLimits.answerChars));
    assert.equal(kept[0]!.omittedChars, 1_000_000 - comparisonLimits.answerChars);
    assert.ok(measurement.peakHeapGrowthMiB < 512, `heap grew ${measurement.peakHeapGrowthMiB} MiB`);
  });

  it('more than a million groups: the first million compared, 200 kept for the page, and the rest said', async () => {
    const count = rescoringLimits.groups + 5;
    const line = '{"trajectories":[{"reward":1,"messages_and_choices":[{"role":"assistant","content":"4"}],"metadata":{"answer":"4"}},{"reward":0}]}\n';
    const one = new TextEncoder().encode(line);
    const bytes = new Uint8Array(one.length * count);
    for (let at = 0; at < count; at++) bytes.set(one, at * one.length);
    const { result, measurement } = await measure(() => rescoreFile(fileOf(bytes), { referenceKey: 'answer', score: exactMatch }));
    assert.equal(result.totals.groups, rescoringLimits.groups);
    assert.match(result.stoppedEarly ?? '', /first 1,000,000 groups/);
    assert.equal(result.groups.length, comparisonLimits.keptGroups);
    assert.ok(measurement.maxEventLoopDelayMs < 1_000, `stalled ${measurement.maxEventLoopDelayMs} ms`);
    assert.ok(measurement.peakHeapGrowthMiB < 256, `heap grew ${measurement.peakHeapGrowthMiB} MiB`);
  });
});
