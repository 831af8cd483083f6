import assert from 'node:assert/strict';
import { checkpointModelId } from '../../../src/platform/kit/checkpointIds';
import { startEmulator, type Emulator } from '../../emulator';
import { memoryWebview } from './controllerHarness';
import { createEmulatorController } from './emulatorChat';
import { eventsAbout, finishedAnswers, shownLength, shownText } from './fixtures';
import { until } from './support';

/** The controller on the real client against the emulator, with a webview endpoint in memory. */
async function chatOn(emulator: Emulator) {
  const { webview, events, toWebview } = memoryWebview((message) => controller.receive(message));
  const { controller, client, close } = createEmulatorController(emulator, toWebview);
  const finished = () => finishedAnswers(events);
  return { controller, webview, events, finished, client, close };
}

describe('chat on the platform emulator', function () {
  this.timeout(20_000);
  let emulator: Emulator;
  let chat: Awaited<ReturnType<typeof chatOn>>;

  before(async () => {
    emulator = await startEmulator({ secondsPerStep: 0.01 });
    chat = await chatOn(emulator);
  });
  after(async () => {
    await chat?.close();
    await emulator?.close();
  });

  it("offers the catalogue and the remembered model's newest checkpoints", async () => {
    await chat.webview.request('ready', {});
    const catalogue = await chat.webview.request('refreshModels', {});
    const seeded = emulator.seeded!;
    const ids = catalogue.options.map((option) => option.id);
    for (const id of seeded.inferenceModels) assert.ok(ids.includes(id), id);
    const latest = checkpointModelId({ entity: seeded.trainedModelEntity, project: seeded.trainedModelProject, name: seeded.trainedModelName })!;
    assert.ok(ids.includes(latest));
    assert.equal(ids.filter((id) => id.startsWith(`${latest}:step`)).length, 5);
    assert.deepEqual(catalogue.problems, []);
  });

  it('streams a catalogue model through the inference API with usage and timing', async () => {
    const { conversation } = await chat.webview.request('ready', {});
    const model = emulator.seeded!.inferenceModels[0]!;
    await chat.webview.request('updateSettings', { conversationId: conversation.id, settings: { ...conversation.settings, model } });
    const before = emulator.requests.length;
    await chat.webview.request('send', { conversationId: conversation.id, text: 'How should I choose a reward?' });
    await until(() => chat.finished().length === 1, 5000);
    const answer = chat.finished()[0]!;
    assert.equal(answer.status, 'done', answer.error?.message);
    assert.match(answer.content, /```/);
    assert.ok(answer.stats!.usageReported);
    assert.ok(answer.stats!.completionTokens! > 10);
    assert.ok(answer.stats!.promptTokens! > 0);
    const request = emulator.requests.slice(before).find((entry) => entry.path.endsWith('/chat/completions'))!;
    assert.ok(request.path.startsWith('/inference/v1'));
    const body = JSON.parse(request.body);
    assert.equal(body.stream, true);
    assert.deepEqual(body.stream_options, { include_usage: true });
  });

  it('streams a checkpoint through the training API, and reasoning text apart from the answer', async () => {
    const seeded = emulator.seeded!;
    const checkpoint = checkpointModelId({ entity: seeded.trainedModelEntity, project: seeded.trainedModelProject, name: seeded.trainedModelName }, 3)!;
    const conversation = await chat.controller.openWithModel(checkpoint);
    const before = emulator.requests.length;
    const count = chat.finished().length;
    await chat.webview.request('send', { conversationId: conversation.id, text: '/echo from the checkpoint' });
    await until(() => chat.finished().length === count + 1, 5000);
    assert.equal(chat.finished().at(-1)!.content, 'from the checkpoint');
    assert.ok(emulator.requests.slice(before).some((entry) => entry.path === '/training/v1/chat/completions'));

    const reasoning = await chat.controller.openWithModel(seeded.inferenceModels.find((id) => id.includes('reason'))!);
    await chat.webview.request('send', { conversationId: reasoning.id, text: 'Why?' });
    await until(() => chat.finished().length === count + 2, 5000);
    const answer = chat.finished().at(-1)!;
    assert.ok(answer.reasoning.length > 10);
    assert.ok(!answer.content.includes(answer.reasoning));
  });

  it('keeps the text of a stream cut mid-answer with a Retry that completes it', async () => {
    const conversation = await chat.controller.openWithModel(emulator.seeded!.inferenceModels[1]!);
    emulator.addFault({ kind: 'cut-stream', afterChunks: 6, path: '/chat/completions' });
    const count = chat.finished().length;
    await chat.webview.request('send', { conversationId: conversation.id, text: '/echo one two three four five six seven eight nine ten' });
    await until(() => chat.finished().length === count + 1, 5000);
    const cut = chat.finished().at(-1)!;
    assert.equal(cut.status, 'error');
    assert.equal(cut.error?.kind, 'stream-cut');
    assert.ok(cut.content.length > 0 && 'one two three four five six seven eight nine ten'.startsWith(cut.content), cut.content);
    await chat.webview.request('retry', { conversationId: conversation.id, messageId: cut.id });
    await until(() => chat.finished().length === count + 2, 5000);
    assert.equal(chat.finished().at(-1)!.content, 'one two three four five six seven eight nine ten');
  });

  for (const status of [401, 402, 403, 429, 500, 503]) {
    it(`shows a ${status} on the message and keeps the question`, async () => {
      const conversation = await chat.controller.openWithModel(emulator.seeded!.inferenceModels[0]!);
      emulator.addFault({ kind: 'status', status, path: '/inference/v1/chat/completions', times: 5, ...(status === 429 ? { retryAfter: 1 } : {}) });
      const count = chat.finished().length;
      await chat.webview.request('send', { conversationId: conversation.id, text: 'still here?' });
      await until(() => chat.finished().length === count + 1, 5000);
      emulator.clearFaults();
      const failed = chat.finished().at(-1)!;
      assert.equal(failed.status, 'error');
      assert.equal(failed.error?.status, status);
      assert.match(failed.error!.message, new RegExp(String(status)));
      const reopened = await chat.webview.request('openConversation', { conversationId: conversation.id });
      assert.equal(reopened.messages[0]!.content, 'still here?');
    });
  }
});

describe('Stop on the platform emulator', function () {
  this.timeout(20_000);
  let emulator: Emulator;
  let chat: Awaited<ReturnType<typeof chatOn>>;

  before(async () => {
    emulator = await startEmulator({ streamChunkDelayMs: 5 });
    chat = await chatOn(emulator);
  });
  after(async () => {
    await chat?.close();
    await emulator?.close();
  });

  it('stops the request at once: the text stays what was shown and nothing arrives after', async () => {
    const conversation = await chat.controller.openWithModel(emulator.seeded!.inferenceModels[0]!);
    await chat.webview.request('ready', { conversationId: conversation.id });
    const eventsBefore = chat.events.length;
    await chat.webview.request('send', { conversationId: conversation.id, text: '/long 3000' });
    const streamed = () => [...shownText(chat.events.slice(eventsBefore))][0] ?? ['', ''];
    await until(() => streamed()[1].length > 100, 5000, 'a hundred characters of the answer');
    const [answerId, shown] = streamed();
    // How fast Stop returns is a figure of `npm run bench`, not an assert here.
    const { answers } = await chat.webview.request('stop', { conversationId: conversation.id, shown: [shownLength(answerId, shown.length)] });
    assert.equal(answers[0]!.status, 'stopped');
    assert.equal(answers[0]!.content, shown);
    const eventsAtStop = chat.events.length;
    // The connection was given up, and the client still works for the next question. Its answer
    // ending is the signal that anything the stopped answer still had on the way has arrived.
    const count = chat.finished().length;
    await chat.webview.request('send', { conversationId: conversation.id, text: '/echo next' });
    await until(() => chat.finished().length === count + 1, 5000, 'the next answer');
    assert.equal(chat.finished().at(-1)!.content, 'next');
    assert.deepEqual(eventsAbout(chat.events.slice(eventsAtStop), answerId), [], 'nothing about the stopped answer arrives after the Stop reply');
  });
});
