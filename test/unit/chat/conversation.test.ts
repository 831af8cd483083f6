import assert from 'node:assert/strict';
import { appendUserTurn, createConversation, editLastUserMessage, historyFor, lastTurnAnswers, regenerateLastTurn, retryAnswer, titleFrom, untitled } from '../../../src/chat/model/conversation';
import { defaultSettings, isAnswer, type AnswerEntry } from '../../../src/chat/model/conversationTypes';
import { buildChatRequest, normalizeParameters, parameterFields } from '../../../src/chat/model/requestBuilder';
import { testEnv } from './support';

function finish(answer: AnswerEntry, content: string): void {
  answer.content = content;
  answer.status = 'done';
}

describe('chat conversations', () => {
  it('adds a user message with one streaming answer and titles the conversation from it', () => {
    const env = testEnv();
    const conversation = createConversation(env, defaultSettings('model-a'));
    assert.equal(conversation.title, untitled);
    conversation.draft = 'half typed';
    const { user, answers } = appendUserTurn(conversation, 'How do I pick a learning rate?', env);
    assert.equal(conversation.title, 'How do I pick a learning rate?');
    assert.equal(conversation.draft, '');
    assert.equal(answers.length, 1);
    assert.deepEqual([answers[0]!.model, answers[0]!.column, answers[0]!.status, answers[0]!.replyTo], ['model-a', 0, 'streaming', user.id]);
  });

  it('answers with both models in compare mode, and each model sees only its own history', () => {
    const env = testEnv();
    const conversation = createConversation(env, { ...defaultSettings('a'), compare: true, compareModel: 'b' });
    const first = appendUserTurn(conversation, 'one', env);
    assert.deepEqual(
      first.answers.map((answer) => [answer.model, answer.column]),
      [
        ['a', 0],
        ['b', 1],
      ],
    );
    finish(first.answers[0]!, 'A1');
    finish(first.answers[1]!, 'B1');
    const second = appendUserTurn(conversation, 'two', env);
    const forA = buildChatRequest(conversation, second.answers[0]!);
    const forB = buildChatRequest(conversation, second.answers[1]!);
    assert.deepEqual(forA.messages, [
      { role: 'user', content: 'one' },
      { role: 'assistant', content: 'A1' },
      { role: 'user', content: 'two' },
    ]);
    assert.deepEqual(forB.messages, [
      { role: 'user', content: 'one' },
      { role: 'assistant', content: 'B1' },
      { role: 'user', content: 'two' },
    ]);
    assert.equal(forA.model, 'a');
    assert.equal(forB.model, 'b');
  });

  it("turned on mid-conversation, Compare asks the second model with the first column's answers, and says so", () => {
    const env = testEnv();
    const conversation = createConversation(env, defaultSettings('org/model-a'));
    finish(appendUserTurn(conversation, 'one', env).answers[0]!, 'A1');
    finish(appendUserTurn(conversation, 'two', env).answers[0]!, 'A2');
    conversation.settings = { ...conversation.settings, compare: true, compareModel: 'org/model-b' };
    const third = appendUserTurn(conversation, 'three', env);
    const [forA, forB] = third.answers.map((answer) => buildChatRequest(conversation, answer).messages);
    assert.deepEqual(forB, forA, 'both columns answer the same conversation');
    assert.deepEqual(
      forB!.map((message) => message.content),
      ['one', 'A1', 'two', 'A2', 'three'],
    );
    assert.equal(third.answers[0]!.historyFrom, undefined);
    assert.deepEqual(third.answers[1]!.historyFrom, ['org/model-a']);
    // Once the second column has answers of its own, they are its history, and nothing is borrowed
    // beyond the turns it missed.
    finish(third.answers[0]!, 'A3');
    finish(third.answers[1]!, 'B3');
    const fourth = appendUserTurn(conversation, 'four', env);
    assert.deepEqual(
      buildChatRequest(conversation, fourth.answers[1]!).messages.map((message) => message.content),
      ['one', 'A1', 'two', 'A2', 'three', 'B3', 'four'],
    );
  });

  it('leaves failed answers out of the history but keeps stopped ones', () => {
    const env = testEnv();
    const conversation = createConversation(env, defaultSettings('a'));
    const first = appendUserTurn(conversation, 'one', env);
    first.answers[0]!.content = 'partial then cut';
    first.answers[0]!.status = 'error';
    const second = appendUserTurn(conversation, 'two', env);
    second.answers[0]!.content = 'stopped early';
    second.answers[0]!.status = 'stopped';
    const third = appendUserTurn(conversation, 'three', env);
    assert.deepEqual(
      historyFor(conversation, third.answers[0]!).map((entry) => entry.content),
      ['one', 'two', 'stopped early', 'three'],
    );
  });

  it('builds the history only up to the message being answered', () => {
    const env = testEnv();
    const conversation = createConversation(env, defaultSettings('a'));
    const first = appendUserTurn(conversation, 'one', env);
    finish(first.answers[0]!, 'A1');
    appendUserTurn(conversation, 'two', env);
    assert.deepEqual(
      historyFor(conversation, first.answers[0]!).map((entry) => entry.content),
      ['one'],
    );
  });

  it('edits the last user message, dropping its answers and starting new ones', () => {
    const env = testEnv();
    const conversation = createConversation(env, defaultSettings('a'));
    finish(appendUserTurn(conversation, 'one', env).answers[0]!, 'A1');
    const second = appendUserTurn(conversation, 'tow', env);
    finish(second.answers[0]!, 'A2');
    const edited = editLastUserMessage(conversation, 'two', env)!;
    assert.equal(edited.user.id, second.user.id);
    assert.deepEqual(
      conversation.messages.map((entry) => entry.content),
      ['one', 'A1', 'two', ''],
    );
    assert.notEqual(edited.answers[0]!.id, second.answers[0]!.id);
  });

  it('keeps a renamed title when the first message is edited', () => {
    const env = testEnv();
    const conversation = createConversation(env, defaultSettings('a'));
    appendUserTurn(conversation, 'first', env);
    conversation.title = 'Mine';
    conversation.titleFromUser = true;
    editLastUserMessage(conversation, 'changed', env);
    assert.equal(conversation.title, 'Mine');
  });

  it('regenerates every answer of the last turn with the current settings', () => {
    const env = testEnv();
    const conversation = createConversation(env, defaultSettings('a'));
    finish(appendUserTurn(conversation, 'one', env).answers[0]!, 'A1');
    conversation.settings = { ...conversation.settings, model: 'c', compare: true, compareModel: 'd' };
    const answers = regenerateLastTurn(conversation, env)!;
    assert.deepEqual(
      answers.map((answer) => answer.model),
      ['c', 'd'],
    );
    assert.deepEqual(lastTurnAnswers(conversation), answers);
    assert.equal(conversation.messages.filter(isAnswer).length, 2);
  });

  it('retries one answer in place with its own model, under a new id', () => {
    const env = testEnv();
    const conversation = createConversation(env, { ...defaultSettings('a'), compare: true, compareModel: 'b' });
    const { answers } = appendUserTurn(conversation, 'one', env);
    finish(answers[0]!, 'A1');
    answers[1]!.status = 'error';
    conversation.settings.compareModel = 'z';
    const fresh = retryAnswer(conversation, answers[1]!.id, env)!;
    assert.equal(fresh.model, 'b');
    assert.equal(fresh.column, 1);
    assert.notEqual(fresh.id, answers[1]!.id);
    assert.equal(conversation.messages.indexOf(fresh), 2);
  });

  it('refuses to retry an answer that is streaming or not in the last turn', () => {
    const env = testEnv();
    const conversation = createConversation(env, defaultSettings('a'));
    const first = appendUserTurn(conversation, 'one', env);
    assert.equal(retryAnswer(conversation, first.answers[0]!.id, env), undefined);
    finish(first.answers[0]!, 'A1');
    appendUserTurn(conversation, 'two', env);
    assert.equal(retryAnswer(conversation, first.answers[0]!.id, env), undefined);
  });

  it('makes titles from the first line of text, skipping code and long runs', () => {
    assert.equal(titleFrom('  hello\n  world '), 'hello world');
    assert.equal(titleFrom('```ts\nconst x = 1;\n```\nExplain this'), 'Explain this');
    assert.equal(titleFrom('```ts\nconst x = 1;\n```'), '```ts const x = 1; ```');
    assert.equal(titleFrom(''), untitled);
    const long = titleFrom('word '.repeat(40));
    assert.ok(long.length <= 60 && long.endsWith('…'));
  });
});

describe('chat request building', () => {
  it('streams with usage, the system prompt first, and only the parameters that are set', () => {
    const env = testEnv();
    const conversation = createConversation(env, defaultSettings('m'));
    conversation.settings.systemPrompt = 'Be brief.';
    conversation.settings.parameters = { temperature: 0.2, topP: 0.9, maxTokens: 100, seed: 7, stop: ['END', '', 'STOP'], jsonOutput: true };
    const { answers } = appendUserTurn(conversation, 'hi', env);
    assert.deepEqual(buildChatRequest(conversation, answers[0]!), {
      model: 'm',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'hi' },
      ],
      temperature: 0.2,
      top_p: 0.9,
      max_tokens: 100,
      seed: 7,
      stop: ['END', 'STOP'],
      response_format: { type: 'json_object' },
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('sends no optional field when nothing is set', () => {
    assert.deepEqual(parameterFields({ stop: [], jsonOutput: false }), {});
  });

  it('normalizes parameters typed in the form', () => {
    assert.deepEqual(normalizeParameters({ temperature: '0.7', topP: 3, maxTokens: 12.6, seed: -3.9, stop: ['a', 5, '', 'b', 'c', 'd', 'e'], jsonOutput: 'yes' }), {
      temperature: 0.7,
      topP: 1,
      maxTokens: 13,
      seed: -3,
      stop: ['a', 'b', 'c', 'd'],
      jsonOutput: false,
    });
    assert.deepEqual(normalizeParameters({ temperature: 'abc', topP: Number.NaN, maxTokens: '', seed: Infinity }), { stop: [], jsonOutput: false });
    assert.equal(normalizeParameters({ temperature: -1 }).temperature, 0);
    assert.equal(normalizeParameters({ maxTokens: 0 }).maxTokens, 1);
  });
});
