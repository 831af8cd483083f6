import assert from 'node:assert/strict';
import { OrderedReply } from '../../../src/agent/model/replyOrder';
import { foldCompletedAnswer, type ChatPart } from './chatFolding';

/** A chat response stream that records its parts in order, and the chat's tool calls as `tool` parts. */
function recordingReply(): { parts: ChatPart[]; reply: OrderedReply<string>; toolCall: (name: string) => void } {
  const parts: ChatPart[] = [];
  const reply = new OrderedReply<string>({
    markdown: (value) => parts.push({ kind: 'markdown', value }),
    progress: (value) => parts.push({ kind: 'progress', value }),
    button: (value) => parts.push({ kind: 'button', value }),
  });
  return {
    parts,
    reply,
    toolCall: (name) => {
      reply.step();
      parts.push({ kind: 'tool', value: name });
    },
  };
}

describe("@rlstudio's answer order, as the chat folds a completed answer", () => {
  it('the rule it is written for: Markdown split by a button folds its first half', () => {
    const folded = foldCompletedAnswer([
      { kind: 'progress', value: 'Reading job…' },
      { kind: 'markdown', value: '- reward fell at step 40' },
      { kind: 'button', value: 'Open Job Details' },
      { kind: 'markdown', value: 'The learning rate is too high.' },
    ]);
    assert.equal(folded.openText, 'The learning rate is too high.');
    assert.equal(folded.folded.length, 3);
  });

  it('work steps first, the whole answer open as one run, the buttons after it', () => {
    const { parts, reply, toolCall } = recordingReply();
    reply.step('Checking the RL platform…');
    toolCall('rlstudio_platform_status');
    reply.step('Reading followed jobs…');
    toolCall('rlstudio_list_jobs');
    reply.offer('Open Job 4f2a');
    reply.answer('Training API check: answers');
    reply.answer('\n\n');
    reply.answer('- job 4f2a failed');
    reply.finish();
    const folded = foldCompletedAnswer(parts);
    assert.equal(folded.openText, 'Training API check: answers\n\n- job 4f2a failed');
    assert.deepEqual(
      folded.folded.map((part) => part.kind),
      ['progress', 'tool', 'progress', 'tool'],
    );
    assert.deepEqual(folded.after, [{ kind: 'button', value: 'Open Job 4f2a' }]);
  });

  it('refuses a work step once the answer began, as it would fold the answer', () => {
    const { reply, toolCall } = recordingReply();
    reply.answer('Training API check: answers');
    assert.throws(() => toolCall('rlstudio_list_jobs'), /came after the answer began/);
    assert.throws(() => reply.step('Reading followed jobs…'), /Reading followed jobs/);
  });

  it('an empty part does not begin the answer', () => {
    const { reply } = recordingReply();
    reply.answer('');
    assert.doesNotThrow(() => reply.step('Reading…'));
  });

  it('shows each button once, at most four', () => {
    const { parts, reply } = recordingReply();
    for (let index = 0; index < 6; index++) reply.offer(`button ${index}`);
    reply.answer('text');
    reply.finish();
    reply.finish();
    assert.deepEqual(
      parts.filter((part) => part.kind === 'button').map((part) => part.value),
      ['button 0', 'button 1', 'button 2', 'button 3'],
    );
  });
});
