import assert from 'node:assert/strict';
import { estimateTokens, requestOptionsFrom, toChatMessages } from '../../../src/chat/model/languageModelMessages';
import { selectionMessage } from '../../../src/chat/model/selectionMessage';

describe('language model provider messages', () => {
  it('maps roles and text parts, merging consecutive messages of one role', () => {
    const messages = toChatMessages([
      { role: 3, content: [{ value: 'Be brief.' }] },
      { role: 1, content: [{ value: 'Hello ' }, { value: 'there' }] },
      { role: 1, content: ['and more'] },
      { role: 2, content: [{ callId: 'x', name: 'tool', input: {} }] },
      { role: 2, content: [{ value: 'Hi!' }] },
      { role: 1, content: [{ callId: 'x', content: [{ value: 'tool said 4' }] }] },
    ]);
    assert.deepEqual(messages, [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hello there\n\nand more' },
      { role: 'assistant', content: 'Hi!' },
      { role: 'user', content: 'tool said 4' },
    ]);
  });

  it('passes only known, well-typed options', () => {
    assert.deepEqual(requestOptionsFrom({ temperature: 0.3, topP: 0.8, maxTokens: 99.6, seed: 2.5, stop: ['x'], tools: ['ignored'], model: 'other' }), {
      temperature: 0.3,
      top_p: 0.8,
      max_tokens: 100,
      seed: 2,
      stop: ['x'],
    });
    assert.deepEqual(requestOptionsFrom({ temperature: 'hot', stop: [1] }), {});
    assert.deepEqual(requestOptionsFrom(undefined), {});
  });

  it('estimates tokens from length', () => {
    assert.equal(estimateTokens(''), 0);
    assert.equal(estimateTokens('abcd'), 1);
    assert.equal(estimateTokens('abcde'), 2);
  });
});

describe('chat about a selection', () => {
  it('fences code with its language and says where it comes from', () => {
    assert.equal(
      selectionMessage({ text: 'const a = 1;\n', languageId: 'typescript', fileLabel: 'src/a.ts', startLine: 3, endLine: 3 }),
      'From `src/a.ts` (line 3):\n\n```typescript\nconst a = 1;\n```',
    );
    assert.equal(selectionMessage({ text: 'x\n```\ny', languageId: 'markdown', fileLabel: 'README.md', startLine: 1, endLine: 3 }), 'x\n```\ny');
    assert.match(selectionMessage({ text: 'a\n```\nb', languageId: 'python', fileLabel: 'a.py', startLine: 1, endLine: 3 }), /^From `a.py` \(lines 1–3\):\n\n````python\n/);
  });
});
