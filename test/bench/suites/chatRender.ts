/**
 * Chat rendering of a long answer, in chromium: a recorded 20,000-token stream drawn by the real
 * webview bundle (host batches per frame, one redraw per animation frame, only the open block of the
 * streaming answer re-rendered) against a baseline that re-renders the whole conversation with the
 * same Markdown renderer and sanitizer on every chunk, as naive chat panels do.
 *
 * Both receive the same chunks at the same pace: `chunksPerFrame` chunks per animation frame (about
 * 2,400 chunks, some 4,800 tokens, per second: a fast model). Time per frame is the main-thread
 * rendering work done for one frame; the total is that work summed over the stream.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import type { AnswerEntry, Conversation } from '../../../src/chat/conversationTypes';
import type { PanelSnapshot } from '../../../src/webview/chat/protocol';
import type { WireMessage } from '../../../src/webview/common/wire';
import type { BenchFigure, BenchSuite } from '../report';
import { startPanelServer } from '../../unit/chat/browserHarness';
import { hasChromium, launchChromium, openWebviewPage } from '../../unit/webviews/browserHarness';

const repoRoot = join(__dirname, '..', '..', '..', '..');
const recording = JSON.parse(readFileSync(join(repoRoot, 'test/fixtures/chat/recorded-stream-20k.json'), 'utf8')) as { deltas: string[]; completionTokens: number; model: string };
const chunksPerFrame = 40;
/** The baseline is quadratic: it stops here and reports the part it finished. */
const baselineBudgetMs = 60_000;

interface RunResult {
  frames: number[];
  chunks: number;
  wallMs: number;
  complete: boolean;
}

export const suite: BenchSuite = {
  name: 'chat render (20,000-token stream, chromium)',
  async run(): Promise<BenchFigure[]> {
    if (!hasChromium()) {
      console.log('  skipped: the chat render benchmark needs chromium at /usr/bin/chromium');
      return [];
    }
    const browser = await launchChromium();
    const server = await startPanelServer();
    try {
      const ours = await runOurs(browser, server.url);
      const baseline = await runBaseline(browser, server.url);
      return figures(ours, baseline);
    } finally {
      await browser.close();
      await server.close();
    }
  },
};

function figures(ours: RunResult, baseline: RunResult): BenchFigure[] {
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
  const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] ?? 0;
  const total = (values: number[]) => values.reduce((sum, value) => sum + value, 0);
  const partial = baseline.complete
    ? `baseline finished the ${baseline.chunks} chunks`
    : `baseline stopped after ${baseline.chunks} of ${recording.deltas.length} chunks (${Math.round((100 * baseline.chunks) / recording.deltas.length)}%) at the ${baselineBudgetMs / 1000} s budget; its figures cover that part only`;
  const oursFramesOnBaselinePart = ours.frames.slice(0, Math.max(1, Math.ceil(baseline.chunks / chunksPerFrame)));
  return [
    {
      name: 'render time per frame, mean',
      value: mean(ours.frames),
      unit: 'ms',
      peer: { name: 'whole-conversation re-render per chunk', value: mean(baseline.frames) },
      better: 'lower',
      goal: { kind: 'ratio', atMost: 0.1 },
      note: `${ours.frames.length} frames, ${chunksPerFrame} chunks per frame; ${partial}`,
    },
    {
      name: 'render time per frame, 95th percentile',
      value: percentile(ours.frames, 0.95),
      unit: 'ms',
      peer: { name: 'whole-conversation re-render per chunk', value: percentile(baseline.frames, 0.95) },
      better: 'lower',
      goal: { kind: 'absolute', atMost: 16 },
      note: 'one frame at 60 Hz is 16.7 ms',
    },
    {
      name: 'render time per frame, worst',
      value: Math.max(...ours.frames),
      unit: 'ms',
      peer: { name: 'whole-conversation re-render per chunk', value: Math.max(...baseline.frames) },
      better: 'lower',
    },
    {
      name: 'render time, total for the stream',
      value: total(ours.frames),
      unit: 'ms',
      peer: { name: 'whole-conversation re-render per chunk', value: total(baseline.frames) },
      better: 'lower',
      note: baseline.complete ? `${recording.completionTokens} tokens, ${recording.deltas.length} chunks` : `baseline total is for its first ${baseline.chunks} chunks only (ours on that part: ${total(oursFramesOnBaselinePart).toFixed(0)} ms)`,
    },
    {
      name: 'wall time to draw the whole stream',
      value: ours.wallMs,
      unit: 'ms',
      better: 'lower',
      note: `paced at ${chunksPerFrame} chunks per frame; ${recording.deltas.length} chunks take at least ${Math.ceil(recording.deltas.length / chunksPerFrame)} frames`,
    },
  ];
}

/** The real webview bundle, fed by a host that answers `ready` and then streams the recording. */
async function runOurs(browser: Browser, url: string): Promise<RunResult> {
  const user = { id: 'u1', role: 'user' as const, content: 'Write a long guide.', createdAt: 0 };
  const answer: AnswerEntry = { id: 'a1', role: 'assistant', replyTo: 'u1', column: 0, model: recording.model, content: '', reasoning: '', status: 'streaming', createdAt: 0 };
  const conversation: Conversation = {
    id: 'c1', title: 'Benchmark', titleFromUser: false, createdAt: 0, updatedAt: 0, draft: '',
    settings: { model: recording.model, compareModel: '', compare: false, systemPrompt: '', parameters: { stop: [], jsonOutput: false } },
    messages: [user, answer],
  };
  const snapshot: PanelSnapshot = { conversations: [{ id: 'c1', title: 'Benchmark', updatedAt: 0, messageCount: 2 }], conversation, models: { options: [{ id: recording.model, label: recording.model, group: 'Inference models', api: 'inference' }], problems: [] }, modelsLoading: false };
  const view = await openWebviewPage(browser, url, (post) => (raw) => {
    const message = raw as { kind: string; id: number; method: string };
    if (message.kind !== 'request') return;
    const reply: WireMessage = { kind: 'reply', id: message.id, ok: true, result: message.method === 'ready' ? snapshot : null };
    post(reply);
  });
  try {
    await view.page.locator('article.answer').waitFor();
    await view.page.evaluate(() => performance.clearMeasures('rl-chat:frame'));
    const final = { ...answer, content: recording.deltas.join(''), status: 'done' as const };
    const wallMs = await view.page.evaluate(
      async ({ deltas, perFrame, done }) => {
        const started = performance.now();
        let offset = 0;
        for (let index = 0; index < deltas.length; index += perFrame) {
          await new Promise((resolve) => requestAnimationFrame(resolve));
          // What the extension host sends once per frame: the chunks of that frame in one delta.
          const content = deltas.slice(index, index + perFrame).join('');
          window.postMessage({ kind: 'event', event: { type: 'answerDelta', conversationId: 'c1', messageId: 'a1', contentOffset: offset, content, reasoningOffset: 0, reasoning: '' } }, '*');
          offset += content.length;
        }
        window.postMessage({ kind: 'event', event: { type: 'answerUpdated', conversationId: 'c1', answer: done } }, '*');
        await new Promise((resolve) => setTimeout(resolve, 0));
        await new Promise((resolve) => requestAnimationFrame(resolve));
        await new Promise((resolve) => requestAnimationFrame(resolve));
        return performance.now() - started;
      },
      { deltas: recording.deltas, perFrame: chunksPerFrame, done: final },
    );
    const frames = await view.page.evaluate(() => performance.getEntriesByName('rl-chat:frame').map((entry) => entry.duration));
    const shown = await view.page.locator('article.answer .message-body').innerText();
    if (shown.length < final.content.length * 0.8) throw new Error('the benchmark answer was not fully drawn');
    if (view.problems.length) throw new Error(`the webview reported problems: ${view.problems.join('; ')}`);
    return { frames, chunks: recording.deltas.length, wallMs, complete: true };
  } finally {
    await view.page.context().close();
  }
}

/** Same Markdown renderer and sanitizer, re-rendering every message on every chunk. */
async function runBaseline(browser: Browser, url: string): Promise<RunResult> {
  const bundle = await esbuild.build({
    stdin: {
      contents: `
        import { createMarkdownRenderer } from './src/webview/chat/markdownRenderer';
        const renderer = createMarkdownRenderer();
        window.__renderConversation = (messages) => {
          const root = document.getElementById('app');
          const parts = messages.map((message) => {
            const article = document.createElement('article');
            article.className = 'message ' + (message.role === 'user' ? 'user' : 'answer');
            const body = document.createElement('div');
            body.className = 'message-body markdown-body';
            body.append(renderer.render(message.content));
            article.append(body);
            return article;
          });
          root.replaceChildren(...parts);
        };`,
      resolveDir: repoRoot,
      loader: 'ts',
    },
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    logLevel: 'silent',
  });
  const context = await browser.newContext({ viewport: { width: 1000, height: 760 } });
  const page: Page = await context.newPage();
  try {
    await page.goto(`${url}plain`);
    await page.addScriptTag({ content: bundle.outputFiles[0]!.text });
    const result = await page.evaluate(
      async ({ deltas, perFrame, budgetMs }) => {
        const render = (window as unknown as { __renderConversation(messages: { role: string; content: string }[]): void }).__renderConversation;
        const frames: number[] = [];
        const started = performance.now();
        let content = '';
        let chunks = 0;
        for (let index = 0; index < deltas.length; index += perFrame) {
          await new Promise((resolve) => requestAnimationFrame(resolve));
          const frameStart = performance.now();
          for (const delta of deltas.slice(index, index + perFrame)) {
            content += delta;
            chunks++;
            render([{ role: 'user', content: 'Write a long guide.' }, { role: 'assistant', content }]);
          }
          frames.push(performance.now() - frameStart);
          if (performance.now() - started > budgetMs) break;
        }
        return { frames, chunks, wallMs: performance.now() - started };
      },
      { deltas: recording.deltas, perFrame: chunksPerFrame, budgetMs: baselineBudgetMs },
    );
    return { ...result, complete: result.chunks === recording.deltas.length };
  } finally {
    await context.close();
  }
}
