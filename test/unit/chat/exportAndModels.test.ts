import assert from 'node:assert/strict';
import { appendUserTurn, createConversation } from '../../../src/chat/model/conversation';
import { defaultSettings } from '../../../src/chat/model/conversationTypes';
import { conversationToJson, conversationToMarkdown, exportFileName } from '../../../src/chat/model/exportConversation';
import { checkpointModelId, parseCheckpointModelId } from '../../../src/platform/kit/checkpointIds';
import { apiForModel, shortModelLabel } from '../../../src/platform/kit/modelIds';
import { buildModelOptions, groupOptions, withSelectedModels } from '../../../src/chat/model/modelOptions';
import { computeStats, formatStats } from '../../../src/chat/model/stats';
import { testEnv } from './support';

const at = new Date('2025-01-02T03:04:05.000Z');

function sampleConversation() {
  const env = testEnv();
  const conversation = createConversation(env, {
    ...defaultSettings('model-a'),
    compare: true,
    compareModel: 'model-b',
    systemPrompt: 'Be brief.',
    parameters: { temperature: 0.5, stop: [], jsonOutput: false },
  });
  const { answers } = appendUserTurn(conversation, 'What is RL?', env);
  Object.assign(answers[0]!, {
    content: 'Reinforcement learning.\n\n```python\nprint("hi")\n```',
    reasoning: 'Think ``` fences ``` inside',
    status: 'done',
    stats: { usageReported: true, promptTokens: 4, completionTokens: 10, totalTokens: 14, streamedChunks: 10, ttftMs: 120, totalMs: 900, tokensPerSecond: 11.25 },
  });
  Object.assign(answers[1]!, { content: 'Learning from rewards', status: 'error', error: { kind: 'stream-cut', message: 'The answer was cut off.', retryable: true } });
  return conversation;
}

describe('chat export', () => {
  it('writes a readable Markdown document with both compare answers, usage and folded reasoning', () => {
    const markdown = conversationToMarkdown(sampleConversation(), at);
    const expected = [
      '# What is RL?',
      '',
      '- Model: `model-a vs model-b`',
      '- Parameters: `temperature 0.5`',
      '- Exported: 2025-01-02T03:04:05.000Z',
      '',
      '## System',
      '',
      'Be brief.',
      '',
      '## User',
      '',
      'What is RL?',
      '',
      '## Assistant (`model-a`)',
      '',
      '<details><summary>Reasoning</summary>',
      '',
      '````text',
      'Think ``` fences ``` inside',
      '````',
      '',
      '</details>',
      '',
      'Reinforcement learning.',
      '',
      '```python',
      'print("hi")',
      '```',
      '',
      '> 4 prompt + 10 completion tokens · first token 120 ms · 11.3 tok/s · 900 ms',
      '',
      '## Assistant (`model-b`)',
      '',
      'Learning from rewards',
      '',
      '> error: The answer was cut off.',
      '',
    ].join('\n');
    assert.equal(markdown, expected);
  });

  it('writes JSON with stable field names and without the draft', () => {
    const conversation = sampleConversation();
    conversation.draft = 'secret draft';
    const parsed = JSON.parse(conversationToJson(conversation, at));
    assert.equal(parsed.format, 'rl-studio.chat');
    assert.equal(parsed.version, 1);
    assert.equal(parsed.exportedAt, '2025-01-02T03:04:05.000Z');
    assert.deepEqual(
      parsed.messages.map((m: { role: string; model?: string; status?: string }) => [m.role, m.model, m.status]),
      [
        ['user', undefined, undefined],
        ['assistant', 'model-a', 'done'],
        ['assistant', 'model-b', 'error'],
      ],
    );
    assert.equal(parsed.messages[1].stats.completionTokens, 10);
    assert.ok(!JSON.stringify(parsed).includes('secret draft'));
  });

  it('names export files after the title', () => {
    const conversation = sampleConversation();
    assert.equal(exportFileName(conversation, 'markdown'), 'What-is-RL.md');
    conversation.title = '///';
    assert.equal(exportFileName(conversation, 'json'), 'chat.json');
  });
});

describe('chat models', () => {
  it('routes checkpoint ids to the training API and everything else to inference', () => {
    const id = checkpointModelId({ entity: 'e', project: 'p', name: 'policy-001' }, 12)!;
    assert.equal(id, 'wandb-artifact:///e/p/policy-001:step12');
    assert.equal(apiForModel(id), 'training');
    assert.equal(apiForModel('meta-llama/Llama-3.1-8B-Instruct'), 'inference');
    assert.deepEqual(parseCheckpointModelId(id), { entity: 'e', project: 'p', name: 'policy-001', step: 12 });
    assert.deepEqual(parseCheckpointModelId('wandb-artifact:///e/p/policy'), { entity: 'e', project: 'p', name: 'policy' });
    assert.equal(parseCheckpointModelId('wandb-artifact:///e/p'), undefined);
    assert.equal(shortModelLabel(id), 'policy-001 · step 12');
  });

  it('lists catalogue models, then each trained model latest-first, without duplicates', () => {
    const options = buildModelOptions(['a', 'b', 'a'], [{ entity: 'e', project: 'p', name: 'n', steps: [0, 2, 1, 2] }]);
    assert.deepEqual(
      options.map((option) => [option.id, option.api]),
      [
        ['a', 'inference'],
        ['b', 'inference'],
        ['wandb-artifact:///e/p/n', 'training'],
        ['wandb-artifact:///e/p/n:step2', 'training'],
        ['wandb-artifact:///e/p/n:step1', 'training'],
        ['wandb-artifact:///e/p/n:step0', 'training'],
      ],
    );
    assert.deepEqual(
      groupOptions(options).map((group) => [group.group, group.options.length]),
      [
        ['Inference models', 2],
        ['e/p/n', 4],
      ],
    );
  });

  it('offers pinned models first, a pinned checkpoint older than the listed ones included, each once', () => {
    const pinned = ['wandb-artifact:///e/p/n:step20', 'a'];
    const options = buildModelOptions(['a', 'b'], [{ entity: 'e', project: 'p', name: 'n', steps: [40, 20] }], pinned);
    assert.deepEqual(
      options.map((option) => [option.id, option.group, option.api]),
      [
        ['wandb-artifact:///e/p/n:step20', 'Pinned', 'training'],
        ['a', 'Pinned', 'inference'],
        ['b', 'Inference models', 'inference'],
        ['wandb-artifact:///e/p/n', 'e/p/n', 'training'],
        ['wandb-artifact:///e/p/n:step40', 'e/p/n', 'training'],
      ],
    );
    assert.equal(options[0]!.label, 'n · step 20');
  });

  it('always offers the selected model, even when no source listed it', () => {
    const options = buildModelOptions(['a'], []);
    const withCheckpoint = withSelectedModels(options, ['wandb-artifact:///e/p/n:step7', 'a', '']);
    assert.deepEqual(
      withCheckpoint.map((option) => option.id),
      ['a', 'wandb-artifact:///e/p/n:step7'],
    );
    assert.equal(withCheckpoint[1]!.group, 'Other');
    assert.equal(withSelectedModels(options, ['a']), options);
  });
});

describe('chat statistics', () => {
  it('computes time to first token and decoding speed', () => {
    const stats = computeStats({ startedAt: 1000, firstTokenAt: 1200, endedAt: 3200 }, { prompt_tokens: 10, completion_tokens: 101, total_tokens: 111 }, 90);
    assert.deepEqual(stats, { usageReported: true, streamedChunks: 90, totalMs: 2200, promptTokens: 10, completionTokens: 101, totalTokens: 111, ttftMs: 200, tokensPerSecond: 50 });
    assert.equal(formatStats(stats), '10 prompt + 101 completion tokens · first token 200 ms · 50.0 tok/s · 2 s');
  });

  it('estimates from chunks when usage is missing and says so', () => {
    const stats = computeStats({ startedAt: 0, firstTokenAt: 100, endedAt: 1100 }, undefined, 11);
    assert.equal(stats.tokensPerSecond, 10);
    assert.match(formatStats(stats), /^≈11 completion tokens \(usage not reported\)/);
  });

  it('shows no speed for a window too short to measure', () => {
    assert.equal(computeStats({ startedAt: 0, firstTokenAt: 5, endedAt: 9 }, { prompt_tokens: 1, completion_tokens: 500, total_tokens: 501 }, 500).tokensPerSecond, undefined);
  });

  it('has no speed without text', () => {
    const stats = computeStats({ startedAt: 0, endedAt: 50 }, undefined, 0);
    assert.equal(stats.ttftMs, undefined);
    assert.equal(stats.tokensPerSecond, undefined);
  });
});
