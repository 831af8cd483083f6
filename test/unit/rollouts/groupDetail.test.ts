import * as assert from 'node:assert/strict';
import { buildGroupDetail, diffNotes, maxComparedChars, maxDetailChars } from '../../../src/rollouts/model/groupDetail';
import { maxExceptions } from '../../../src/rollouts/model/trajectoryParts';
import { detailLimits, type GroupDetail } from '../../../src/rollouts/model/inspectorModel';
import { choice, group, trajectory } from './rolloutFixtures';
import { conversation, groupOfConversations, summaryOf } from './viewFixtures';

function detailOf(value: unknown, problems: string[] = []): GroupDetail {
  return buildGroupDetail(value, summaryOf(value, 2, 9), problems);
}

/** The characters of text a detail carries, as the page receives it. */
function sizeOf(detail: GroupDetail): number {
  return JSON.stringify(detail).length;
}

describe('group detail', () => {
  it('orders the siblings best first, ties by position, with their advantages', () => {
    const value = group([trajectory(0.5, choice('a')), trajectory(1, choice('b')), trajectory(0, choice('c')), trajectory(1, choice('d'))]);
    const detail = detailOf(value);
    assert.equal(detail.index, 2);
    assert.equal(detail.line, 9);
    assert.deepEqual(
      detail.trajectories.map((view) => [view.position, view.reward]),
      [
        [1, 1],
        [3, 1],
        [0, 0.5],
        [2, 0],
      ],
    );
    // Mean 0.625; deviations 0.375, 0.375, −0.125, −0.625: variance 0.171875.
    const std = Math.sqrt(0.171875);
    assert.deepEqual(detail.reward, { mean: 0.625, std, min: 0, max: 1 });
    assert.equal(detail.trajectories[0]!.advantage, 0.375);
    assert.equal(detail.trajectories[0]!.normalizedAdvantage, 0.375 / std);
    assert.equal(detail.trajectories[3]!.advantage, -0.625);
    assert.equal(detail.omittedTrajectories, 0);
  });

  it('gives a normalized advantage of 0 when every reward is the same', () => {
    const detail = detailOf(group([trajectory(1, choice('a')), trajectory(1, choice('b'))]));
    assert.deepEqual(
      detail.trajectories.map((view) => [view.advantage, view.normalizedAdvantage]),
      [
        [0, 0],
        [0, 0],
      ],
    );
  });

  it('shows messages and choices: roles, trained turns, finish reasons, tool calls, tool results and log-probabilities', () => {
    const call = { id: 'call_1', type: 'function', function: { name: 'search', arguments: '{"q": "weather"}' } };
    const value = groupOfConversations([
      [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Weather?' },
        choice(null, 'tool_calls', [call]),
        { role: 'tool', tool_call_id: 'call_1', content: 'Sunny' },
        choice('It is sunny.'),
      ],
    ]);
    const [view] = detailOf(value).trajectories;
    assert.deepEqual(view!.messages, [
      { role: 'system', trained: false, content: 'Be brief.', omittedChars: 0, toolCalls: [] },
      { role: 'user', trained: false, content: 'Weather?', omittedChars: 0, toolCalls: [] },
      {
        role: 'assistant',
        trained: true,
        finishReason: 'tool_calls',
        content: '',
        omittedChars: 0,
        toolCalls: [{ id: 'call_1', name: 'search', arguments: '{"q": "weather"}' }],
        logprobs: [{ token: 'x', logprob: -0.1 }],
      },
      { role: 'tool', trained: false, content: 'Sunny', omittedChars: 0, toolCalls: [], toolCallId: 'call_1' },
      { role: 'assistant', trained: true, finishReason: 'stop', content: 'It is sunny.', omittedChars: 0, toolCalls: [], logprobs: [{ token: 'x', logprob: -0.1 }] },
    ]);
    assert.equal(view!.doesNothing, false, 'a tool call is doing something');
  });

  it('joins a list of content parts, noting the parts that are not text', () => {
    const value = groupOfConversations([
      [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
            { type: 'text', text: 'this picture?' },
            { type: 'input_audio', input_audio: {} },
            { type: 'hologram' },
            42,
          ],
        },
      ],
    ]);
    assert.equal(detailOf(value).trajectories[0]!.messages[0]!.content, 'What is in\n[image]\nthis picture?\n[audio]\n[hologram]\n[part]');
  });

  it('cuts long content at maxMessageChars and says how much is left out', () => {
    const long = 'y'.repeat(detailLimits.maxMessageChars + 1234);
    const message = detailOf(groupOfConversations([conversation(long)])).trajectories[0]!.messages[0]!;
    assert.equal(message.content.length, detailLimits.maxMessageChars);
    assert.equal(message.omittedChars, 1234);
  });

  it("compares each trained turn with the best sibling's turn at the same place", () => {
    const value = groupOfConversations([conversation('Q', 'The answer is 4.', 'Done.'), conversation('Q', 'The answer is 5.'), conversation('Q', 'The answer is 4.', 'Done!', 'Extra turn.')]);
    const [best, second, third] = detailOf(value).trajectories;
    assert.equal(best!.position, 0);
    assert.ok(
      best!.messages.every((message) => message.diff === undefined && message.diffNote === undefined),
      'the best is not compared with itself',
    );
    assert.deepEqual(second!.messages[1]!.diff, [
      { kind: 'same', text: 'The answer is ' },
      { kind: 'removed', text: '4' },
      { kind: 'added', text: '5' },
      { kind: 'same', text: '.' },
    ]);
    assert.equal(second!.messages[0]!.diff, undefined, 'a prompt is not compared');
    assert.deepEqual(third!.messages[1]!.diff, [{ kind: 'same', text: 'The answer is 4.' }]);
    assert.deepEqual(third!.messages[2]!.diff, [
      { kind: 'same', text: 'Done' },
      { kind: 'removed', text: '.' },
      { kind: 'added', text: '!' },
    ]);
    assert.equal(third!.messages[3]!.diff, undefined);
    assert.equal(third!.messages[3]!.diffNote, diffNotes.noTurn);
  });

  it('notes a turn too long to compare instead of comparing it', () => {
    const many = 'word '.repeat(detailLimits.maxDiffWords);
    const value = groupOfConversations([conversation('Q', 'short'), conversation('Q', many), conversation('Q', 'z'.repeat(detailLimits.maxMessageChars + 1))]);
    const [, second, third] = detailOf(value).trajectories;
    assert.equal(second!.messages[1]!.diffNote, diffNotes.tooLong);
    assert.equal(third!.messages[1]!.diffNote, diffNotes.tooLong);
  });

  it('stops comparing once a group has compared maxComparedChars characters', () => {
    const text = (seed: number) => Array.from({ length: 400 }, (_, at) => `w${(at * seed) % 97}`).join(' ');
    const siblings = Array.from({ length: detailLimits.maxTrajectories }, (_, at) => conversation('Q', ...Array.from({ length: 20 }, () => text(at + 1))));
    const detail = detailOf(groupOfConversations(siblings));
    const trained = detail.trajectories.slice(1).flatMap((view) => view.messages.filter((message) => message.trained));
    const compared = trained.filter((message) => message.diff);
    assert.ok(compared.length > 0);
    assert.ok(trained.some((message) => message.diffNote === diffNotes.overBudget));
    const chars = compared.reduce((sum, message) => sum + message.diff!.reduce((total, span) => total + span.text.length, 0), 0);
    assert.ok(chars <= maxComparedChars, `${chars} characters compared`);
  });

  it('shows tools, additional histories, logs, metrics and metadata, each capped', () => {
    const value = groupOfConversations([conversation('Q', 'A')]);
    Object.assign((value.trajectories as Record<string, unknown>[])[0]!, {
      tools: [{ type: 'function', function: { name: 'search' } }, { name: 'plain_name' }, { nope: 1 }],
      additional_histories: Array.from({ length: 20 }, (_, at) => ({ messages_and_choices: conversation(`history ${at}`, 'reply') })),
      logs: Array.from({ length: 500 }, (_, at) => `line ${at} ${'.'.repeat(at === 0 ? 5000 : 0)}`),
      metrics: { score: 0.5, passed: true, note: 'ok', nested: { a: [1, 2] } },
      metadata: { id: 'x'.repeat(1000) },
    });
    const [view] = detailOf(value).trajectories;
    assert.deepEqual(view!.tools, ['search', 'plain_name']);
    assert.equal(view!.additionalHistories.length, detailLimits.maxAdditionalHistories);
    assert.equal(view!.additionalHistories[3]![0]!.content, 'history 3');
    assert.equal(view!.additionalHistories[3]![1]!.trained, true);
    assert.equal(view!.logs.length, detailLimits.maxLogLines);
    assert.equal(view!.logs[0]!.length, detailLimits.maxLogChars);
    assert.deepEqual(view!.metrics, { score: '0.5', passed: 'true', note: 'ok', nested: '{"a":[1,2]}' });
    assert.equal(view!.metadata.id!.length, detailLimits.maxShortText);
    assert.ok(view!.metadata.id!.endsWith('…'));
  });

  it('says which sibling was cut off, repeats itself, or does nothing', () => {
    const loop = 'the answer is the answer is '.repeat(30);
    const value = group([trajectory(1, choice('A full and proper answer.')), trajectory(0, choice('cut', 'length')), trajectory(0, choice(loop)), trajectory(0.5, choice('  …  '))]);
    const byPosition = new Map(detailOf(value).trajectories.map((view) => [view.position, view]));
    assert.deepEqual(
      [0, 1, 2, 3].map((position) => [byPosition.get(position)!.truncated, byPosition.get(position)!.doesNothing]),
      [
        [false, false],
        // A short text is an answer where no sibling calls a tool; only the wordless one does nothing.
        [true, false],
        [false, false],
        [false, true],
      ],
    );
    assert.ok(byPosition.get(2)!.repetition > 0.5);
    assert.equal(byPosition.get(0)!.repetition, 0);
  });

  it("shows the group's exceptions, metadata, flags and shape problems", () => {
    const value = group([trajectory(1, choice('a'))], {
      exceptions: [{ type: 'ValueError', message: 'bad value', traceback: 'long' }, 'a plain string', ...Array.from({ length: 100 }, () => ({ message: 'again' }))],
      metadata: { step: 3, split: 'train' },
    });
    const detail = detailOf(value, ['trajectories[0].reward: expected a number']);
    assert.equal(detail.exceptions.length, maxExceptions);
    assert.deepEqual(detail.exceptions.slice(0, 3), ['ValueError: bad value', 'a plain string', 'Exception: again']);
    assert.deepEqual(detail.metadata, { step: '3', split: 'train' });
    assert.deepEqual(detail.flags, ['noSignal', 'exceptions']);
    assert.deepEqual(detail.problems, ['trajectories[0].reward: expected a number']);
  });

  it('keeps the best maxTrajectories siblings of a large group', () => {
    const rewards = Array.from({ length: 1000 }, (_, at) => (at * 7919) % 1000);
    const detail = detailOf(group(rewards.map((reward) => ({ reward, messages_and_choices: [] }))));
    assert.equal(detail.trajectories.length, detailLimits.maxTrajectories);
    assert.equal(detail.omittedTrajectories, 1000 - detailLimits.maxTrajectories);
    assert.deepEqual(
      detail.trajectories.map((view) => view.reward),
      Array.from({ length: detailLimits.maxTrajectories }, (_, at) => 999 - at),
    );
  });
});

describe('group detail of a hostile group', () => {
  it('a million messages: at most maxMessages shown, the rest counted', () => {
    const items = Array.from({ length: 1_000_000 }, () => ({ role: 'user', content: 'hi' }));
    const detail = detailOf(group([{ reward: 1, messages_and_choices: items }]));
    assert.equal(detail.trajectories[0]!.messages.length, detailLimits.maxMessages);
    assert.equal(detail.trajectories[0]!.omittedMessages, 1_000_000 - detailLimits.maxMessages);
  });

  it('50 MB strings everywhere: every text cut, the whole detail within maxDetailChars', () => {
    const huge = 'x'.repeat(50 * 2 ** 20);
    const message = { role: huge, content: huge, tool_call_id: huge, tool_calls: Array(100).fill({ id: huge, function: { name: huge, arguments: huge } }) };
    const turn = { finish_reason: huge, message, logprobs: { content: Array(10_000).fill({ token: huge, logprob: -1 }) } };
    const sibling = {
      reward: 0,
      messages_and_choices: Array(detailLimits.maxMessages).fill(turn),
      tools: Array(1000).fill({ function: { name: huge } }),
      logs: Array(1000).fill(huge),
      metrics: { [huge]: huge },
      metadata: { key: huge },
      additional_histories: Array(100).fill({ messages_and_choices: Array(1000).fill(message) }),
    };
    const value = { trajectories: Array(detailLimits.maxTrajectories + 10).fill(sibling), exceptions: Array(1000).fill({ type: huge, message: huge }), metadata: { [huge]: huge } };
    const detail = buildGroupDetail(value, summaryOf(group([trajectory(0, choice('a'))])), Array(1000).fill(huge));
    assert.ok(sizeOf(detail) < maxDetailChars * 1.5, `${sizeOf(detail)} characters`);
    assert.equal(detail.trajectories.length, detailLimits.maxTrajectories);
    const first = detail.trajectories[0]!.messages[0]!;
    assert.equal(first.content.length, detailLimits.maxMessageChars);
    assert.equal(first.omittedChars, huge.length - detailLimits.maxMessageChars);
    assert.ok(first.role.length <= 40);
    assert.ok(first.logprobs!.length <= detailLimits.maxTokens);
    assert.equal(first.diffNote, undefined, 'the best is not compared');
    assert.equal(detail.trajectories[1]!.messages[0]!.diffNote, diffNotes.tooLong);
    // Each sibling has its share of the budget: every one is shown, none whole.
    for (const view of detail.trajectories) {
      assert.ok(view.messages.length >= 1);
      assert.equal(view.messages.length + view.omittedMessages, detailLimits.maxMessages);
    }
  });

  it('deep nesting, __proto__ keys and wrong types everywhere: a bounded detail, no throw', () => {
    let deep: unknown = 'bottom';
    for (let depth = 0; depth < 100_000; depth++) deep = { a: [deep] };
    const text =
      '{"trajectories": [' +
      '{"reward": 1, "__proto__": {"polluted": true}, "messages_and_choices": [{"__proto__": 1, "role": "user", "content": "hi"}], "metrics": {"__proto__": 5}, "metadata": {"__proto__": {"x": 1}}},' +
      '{"reward": "high", "messages_and_choices": "not a list", "tools": {"a": 1}, "logs": 7, "additional_histories": [null, 3, {"messages_and_choices": {}}]},' +
      '{"reward": 0, "messages_and_choices": [null, 1, "text", [], {"finish_reason": 3, "message": {"role": 5, "content": {"nested": true}, "tool_calls": [null, {"function": 5}, {"id": 7, "function": {"name": [], "arguments": {"o": 1}}}]}, "logprobs": {"content": [null, {"token": 1, "logprob": "x"}, {"token": "ok", "logprob": -0.5}]}}, {"finish_reason": "stop", "message": null}, {"role": "tool", "tool_call_id": 9, "content": [{"type": "text", "text": 5}]}]}' +
      '], "exceptions": {"not": "a list"}, "metadata": []}';
    const value = JSON.parse(text) as Record<string, unknown>;
    const trajectories = value.trajectories as Record<string, unknown>[];
    trajectories[0]!.metadata = { deep };
    (trajectories[2]!.messages_and_choices as unknown[]).push({ role: 'user', content: deep });
    const summary = summaryOf(group([trajectory(1, choice('a')), trajectory(0, choice('b')), trajectory(0, choice('c'))]));

    const detail = buildGroupDetail(value, summary, []);
    assert.ok(sizeOf(detail) < 100_000);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    // "high" is no reward: that sibling sorts last.
    const [best, third, second] = detail.trajectories;
    assert.equal(best!.position, 0);
    assert.deepEqual(Object.keys(best!.metrics), ['__proto__']);
    assert.equal(Object.getPrototypeOf(best!.metrics), Object.prototype);
    assert.ok(best!.metadata.deep!.length <= detailLimits.maxShortText);
    assert.deepEqual([second!.position, second!.reward], [1, 0]);
    assert.deepEqual(second!.messages, []);
    assert.deepEqual(second!.additionalHistories, [[], [], []]);
    assert.deepEqual([second!.tools, second!.logs], [[], []]);
    const messages = third!.messages;
    assert.equal(messages.length, 8);
    assert.deepEqual(messages[4], {
      role: 'assistant',
      trained: true,
      finishReason: 'unknown',
      content: '{"nested":true}',
      omittedChars: 0,
      toolCalls: [
        { id: '', name: '', arguments: '' },
        { id: '', name: '', arguments: '{"o":1}' },
      ],
      logprobs: [{ token: 'ok', logprob: -0.5 }],
      diffNote: diffNotes.noTurn,
    });
    assert.deepEqual([messages[5]!.trained, messages[6]!.content, messages[6]!.toolCallId], [false, '[text]', undefined]);
    assert.ok(messages[7]!.content.startsWith('{"a":[{"a":[') && messages[7]!.content.length <= detailLimits.maxMessageChars, 'a deep content as bounded JSON');
    assert.deepEqual([detail.exceptions, detail.metadata], [[], {}]);
  });

  it('a value that is not a group at all: an empty detail from the summary', () => {
    const summary = summaryOf(group([trajectory(1, choice('a'))]));
    for (const value of [null, 42, 'text', [], { trajectories: 'no' }]) {
      const detail = buildGroupDetail(value, summary, []);
      assert.deepEqual([detail.trajectories, detail.omittedTrajectories, detail.exceptions], [[], 0, []]);
      assert.deepEqual(detail.reward, summary.reward);
    }
  });
});
