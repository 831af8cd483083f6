import assert from 'node:assert/strict';
import { buildJudgeRequest, parseJudgeVerdict } from '../../../src/platform/scoring/judge';
import { buildRelativeJudgeRequest, parseRelativeScores } from '../../../src/taskRuns/model/relativeJudge';
import { judgeReply } from '../../emulator/judges';

const prompt = [{ role: 'user' as const, content: 'What is 17 + 25?' }];
const userText = (request: { messages: { content: unknown }[] }) => String(request.messages.at(-1)!.content);

describe('the emulator as a judge', () => {
  it('grades an answer by its last number, in the form the LLM judge reads', () => {
    assert.equal(parseJudgeVerdict(judgeReply(userText(buildJudgeRequest({ model: 'j', rubric: 'right' }, { messages: prompt }, 'It is 42')))!), 1);
    assert.equal(parseJudgeVerdict(judgeReply(userText(buildJudgeRequest({ model: 'j', rubric: 'right' }, { messages: prompt }, '41')))!), 0);
  });

  it('ranks a group as the relative judge asks, in JSON the loop reads', () => {
    const request = buildRelativeJudgeRequest({ model: 'j', rubric: 'right' }, prompt, ['42', 'forty', 'Answer: 42']);
    assert.deepEqual(parseRelativeScores(judgeReply(userText(request))!, 3), { scores: [1, 0, 1] });
  });

  it('answers anything else as before', () => {
    assert.equal(judgeReply('What is 17 + 25?'), undefined);
    assert.equal(judgeReply('# Prompt\nhello\n\n# Notes\nnothing'), undefined);
  });
});
