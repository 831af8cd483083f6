/**
 * A long conversation in the chat panel, in chromium with the real webview bundle and a real
 * ChatController in Node (in-memory store, a backend that replays the recorded 20,000-token
 * answer): the same page with a 100-turn conversation against itself with a 1-turn one.
 *  - Opening: from the host's snapshot reaching the page until every turn is drawn.
 *  - A new message: typed and sent, its answer streamed (40 recorded chunks every 16 ms, a fast
 *    model) until it is done.
 *
 * Time per frame is the main thread's busy time between two animation frames, read from a
 * chromium trace: every task counts (the message's deserialization, script, style, layout and
 * paint), whichever part of the page did it. A task that holds the page for 200 ms is one 200 ms
 * frame. Each size runs three times, alternately; every figure is the median over the runs.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { ChatCompletionChunk } from '../../../src/platform/client/types';
import { ChatController } from '../../../src/chat/model/chatController';
import { ConversationStore } from '../../../src/chat/model/conversationStore';
import type { AnswerEntry, ChatEntry, Conversation } from '../../../src/chat/model/conversationTypes';
import type { WireMessage } from '../../../src/platform/pages/wire';
import type { BenchFigure, BenchSuite } from '../report';
import { median, percentile, worst } from '../stats';
import { startPanelServer } from '../../unit/chat/browserHarness';
import { FakeBackend, FakeUi } from '../../unit/chat/controllerHarness';
import { catalogueOf } from '../../unit/chat/fixtures';
import { chunk, MemoryStorage, usageChunk } from '../../unit/chat/support';
import { hasChromium, launchChromium, openWebviewPage } from '../../unit/platform/pages/browserHarness';

const repoRoot = join(__dirname, '..', '..', '..', '..');
const recording = JSON.parse(readFileSync(join(repoRoot, 'test/fixtures/chat/recorded-stream-20k.json'), 'utf8')) as { deltas: string[]; completionTokens: number; model: string };
const longTurns = 100;
const chunksPerBatch = 40;
const batchIntervalMs = 16;
const runsPerSide = 3;
const traceCategories = ['toplevel', 'devtools.timeline', 'blink.user_timing'];
/** Host messages longer than this (in JSON characters) are put in the page before they are posted. */
const stageAboveChars = 64 * 1024;

interface Measured {
  /** Main-thread busy time of each frame while the page opened the conversation, ms. */
  open: number[];
  /** The same while a new message was sent and its answer streamed, ms. */
  send: number[];
}

export const suite: BenchSuite = {
  name: 'chat long conversation (chromium)',
  async run(): Promise<BenchFigure[]> {
    if (!hasChromium()) {
      console.log('  skipped: the long conversation benchmark needs chromium at /usr/bin/chromium');
      return [];
    }
    const browser = await launchChromium();
    const server = await startPanelServer();
    try {
      const runs = { long: [] as Measured[], short: [] as Measured[] };
      for (const side of ['long', 'short', 'short', 'long', 'long', 'short'].slice(0, runsPerSide * 2) as ('long' | 'short')[]) {
        runs[side].push(await measure(browser, server.url, side === 'long' ? longTurns : 1));
      }
      return figures(runs.long, runs.short);
    } finally {
      await browser.close();
      await server.close();
    }
  },
};

function figures(long: Measured[], short: Measured[]): BenchFigure[] {
  const across = (runs: Measured[], statistic: (run: Measured) => number) => median(runs.map(statistic));
  const figure = (statistic: (run: Measured) => number) => ({ value: across(long, statistic), peer: { name: 'the same page with a 1-turn conversation', value: across(short, statistic) } });
  const tokens = `${recording.completionTokens}-token answers`;
  const runs = `median of ${long.length} runs each`;
  return [
    {
      name: `${longTurns}-turn conversation of ${tokens}: opening, worst frame`,
      ...figure((run) => worst(run.open)),
      unit: 'ms',
      better: 'lower',
      goal: { kind: 'absolute', atMost: 100 },
      note: `${across(long, (run) => run.open.length)} frames until every turn was drawn, ${runs}`,
    },
    { name: `${longTurns}-turn conversation: opening, frame time p95`, ...figure((run) => percentile(run.open, 0.95)), unit: 'ms', better: 'lower' },
    {
      name: `${longTurns}-turn conversation: a new message and its streamed answer, frame time p95`,
      ...figure((run) => percentile(run.send, 0.95)),
      unit: 'ms',
      better: 'lower',
      goal: { kind: 'absolute', atMost: 16 },
      note: `${across(long, (run) => run.send.length)} frames, ${chunksPerBatch} chunks every ${batchIntervalMs} ms; one frame at 60 Hz is 16.7 ms`,
    },
    { name: `${longTurns}-turn conversation: a new message and its streamed answer, worst frame`, ...figure((run) => worst(run.send)), unit: 'ms', better: 'lower' },
  ];
}

/** A conversation of `turns` questions, each answered with the recorded answer. */
function conversationOf(turns: number): Conversation {
  const model = recording.model;
  const content = recording.deltas.join('');
  const messages: ChatEntry[] = [];
  for (let turn = 1; turn <= turns; turn++) {
    messages.push({ id: `u${turn}`, role: 'user', content: `Question ${turn}: write a long guide.`, createdAt: turn });
    const answer: AnswerEntry = {
      id: `a${turn}`,
      role: 'assistant',
      replyTo: `u${turn}`,
      column: 0,
      model,
      content,
      reasoning: '',
      status: 'done',
      finishReason: 'stop',
      stats: { completionTokens: recording.completionTokens, usageReported: true, streamedChunks: recording.deltas.length, totalMs: 4000 },
      createdAt: turn,
    };
    messages.push(answer);
  }
  const settings = { model, compareModel: '', compare: false, systemPrompt: '', parameters: { stop: [], jsonOutput: false } };
  return { id: 'long', title: 'Benchmark', titleFromUser: false, createdAt: 0, updatedAt: 0, draft: '', settings, messages };
}

/** The recorded answer, paced like a fast model. */
async function* recordedStream(signal: AbortSignal): AsyncGenerator<ChatCompletionChunk> {
  for (let index = 0; index < recording.deltas.length && !signal.aborted; index += chunksPerBatch) {
    await new Promise((resolve) => setTimeout(resolve, batchIntervalMs));
    for (const delta of recording.deltas.slice(index, index + chunksPerBatch)) yield chunk(delta);
  }
  yield chunk('', { finish: 'stop' });
  yield usageChunk({ prompt_tokens: 10, completion_tokens: recording.completionTokens, total_tokens: recording.completionTokens + 10 });
}

async function measure(browser: Browser, url: string, turns: number): Promise<Measured> {
  const store = new ConversationStore(new MemoryStorage());
  await store.add(conversationOf(turns));
  const backend = new FakeBackend();
  backend.catalogue = catalogueOf(recording.model);
  backend.fallback = (_request, signal) => recordedStream(signal);
  // The host's messages reach the page once the frame recorder runs, so the snapshot lands inside it.
  let openGate!: () => void;
  const gate = new Promise<void>((resolve) => (openGate = resolve));
  let pageOpened!: (page: Page) => void;
  const pageReady = new Promise<Page>((resolve) => (pageOpened = resolve));
  let delivering = Promise.resolve();
  /**
   * A large message is first put in the page (outside the frames: the test driver's own transport
   * parses it there, which the extension's does not), then posted to the panel as the extension's
   * is: cloned, received, handled.
   */
  const deliver = (message: WireMessage) => {
    const text = JSON.stringify(message);
    const copy = JSON.parse(text) as unknown;
    const large = text.length > stageAboveChars;
    delivering = delivering
      .then(async () => {
        const page = await pageReady;
        if (large) {
          await page.evaluate((data) => {
            performance.mark('bench-driver');
            (window as unknown as { __staged: unknown }).__staged = data;
          }, copy);
        }
        await gate;
        await page.evaluate(
          (data) => {
            const w = window as unknown as { __staged: unknown };
            window.postMessage(data ?? w.__staged, '*');
            w.__staged = undefined;
          },
          large ? null : copy,
        );
      })
      .catch(() => undefined);
  };
  const controller = new ChatController({ store, backend, ui: new FakeUi(), post: deliver, lastModel: () => recording.model, saveDelayMs: 60_000, saveIntervalMs: 60_000 });
  await browser.startTracing(undefined, { categories: traceCategories });
  let tracing = true;
  const view = await openWebviewPage(browser, url, () => (message) => controller.receive(message));
  pageOpened(view.page);
  try {
    const page = view.page;
    await startFrames(page);
    openGate();
    await page.waitForFunction(
      (count) => document.querySelectorAll('article.answer[data-status="done"]').length === count && document.querySelector('.transcript')?.getAttribute('aria-busy') !== 'true',
      turns,
      { timeout: 120_000, polling: 100 },
    );
    const open = await framesOf(page, browser);
    tracing = false;

    await browser.startTracing(undefined, { categories: traceCategories });
    tracing = true;
    await startFrames(page);
    // Typed in the page itself: the test driver's own element lookup walks the whole document.
    await page.evaluate(() => {
      const input = document.querySelector<HTMLTextAreaElement>('.composer-input')!;
      input.value = 'One more question.';
      input.dispatchEvent(new Event('input', { bubbles: true }));
      input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
    });
    await page.waitForFunction((count) => document.querySelectorAll('article.answer[data-status="done"]').length === count, turns + 1, { timeout: 120_000, polling: 100 });
    const send = await framesOf(page, browser);
    tracing = false;
    if (view.problems.length) throw new Error(`the webview reported problems: ${view.problems.join('; ')}`);
    return { open, send };
  } finally {
    if (tracing) await browser.stopTracing().catch(() => undefined);
    await view.page.context().close();
    await controller.dispose();
  }
}

/** Starts recording the time of every animation frame in the page, from a `bench-start` mark. */
async function startFrames(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __frames: number[]; __recording: boolean };
    w.__frames = [performance.mark('bench-start').startTime];
    w.__recording = true;
    const loop = () => {
      if (!w.__recording) return;
      // When the frame's callbacks run, not the frame's start: a task that delayed the frame lies before it.
      w.__frames.push(performance.now());
      requestAnimationFrame(loop);
    };
    requestAnimationFrame(loop);
  });
}

/**
 * Stops the recorder after a few more frames and the trace, and returns the main thread's busy
 * time between each two recorded frames.
 */
async function framesOf(page: Page, browser: Browser): Promise<number[]> {
  const { frames, markAt } = await page.evaluate(async () => {
    const w = window as unknown as { __frames: number[]; __recording: boolean };
    for (let frame = 0; frame < 3; frame++) await new Promise((resolve) => requestAnimationFrame(resolve));
    w.__recording = false;
    return { frames: w.__frames, markAt: w.__frames[0]! };
  });
  const trace = JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] };
  const events = trace.traceEvents;
  const mark = events.find((event) => event.name === 'bench-start' && event.cat.includes('blink.user_timing'));
  if (!mark) throw new Error('the trace has no bench-start mark');
  const main = events.find((event) => event.name === 'thread_name' && event.pid === mark.pid && event.args?.name === 'CrRendererMain');
  const tid = main?.tid ?? mark.tid;
  // The latest mark is this window's (a page may hold an earlier one); trace times are µs.
  const marks = events.filter((event) => event.name === 'bench-start' && event.pid === mark.pid);
  const origin = marks.reduce((latest, event) => (event.ts > latest.ts ? event : latest)).ts - markAt * 1000;
  const driver = events.filter((event) => event.name === 'bench-driver' && event.pid === mark.pid).map((event) => event.ts);
  const tasks = events.filter(
    (event) =>
      event.pid === mark.pid &&
      event.tid === tid &&
      event.ph === 'X' &&
      event.name === 'ThreadControllerImpl::RunTask' &&
      event.dur !== undefined &&
      // The test driver's calls into the page (putting a message there, posting it): not the panel's work.
      !driver.some((at) => at >= event.ts && at <= event.ts + event.dur!),
  );
  // Each task counts whole in the frame it started in: a task longer than a frame is one long frame.
  const busy = frames.slice(1).map(() => 0);
  for (const task of tasks) {
    const at = (task.ts - origin) / 1000;
    if (at < frames[0]! || at >= frames.at(-1)!) continue;
    let index = 0;
    while (frames[index + 1]! <= at) index++;
    busy[index]! += task.dur! / 1000;
  }
  return busy;
}

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  args?: { name?: string };
}
