/**
 * Shared by the client tests: an emulator-backed client with small retry delays, and a record of
 * every log entry and error the suite saw, so one check can prove the key never leaks.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ChatChunkDecoder, isPlatformError, PlatformClient, SseParser, type ClientOptions, type PlatformError, type RequestLogEntry } from '../../../../../src/platform/client';
import type { ChatCompletionChunk, Usage } from '../../../../../src/platform/client/types';
import { runStream } from '../../../../../src/chat/model/streamRun';
import { startEmulator, type Emulator } from '../../../../emulator';

/** Distinctive, so a leak anywhere can be found by plain search. */
export const testApiKey = 'sk-rlstudio-test-7Qz9X2vLk4Pw8Nn3';

export const observed = {
  logEntries: [] as RequestLogEntry[],
  errors: [] as unknown[],
};

export function clientFor(emulator: Emulator, overrides: Partial<ClientOptions> = {}): PlatformClient & { log: RequestLogEntry[] } {
  const log: RequestLogEntry[] = [];
  const client = new PlatformClient({
    trainingUrl: emulator.trainingUrl,
    inferenceUrl: emulator.inferenceUrl,
    credentials: { getApiKey: async () => emulator.apiKey },
    retryBaseDelayMs: 5,
    retryMaxDelayMs: 50,
    timeoutMs: 5_000,
    ...overrides,
    logger: (entry) => {
      log.push(entry);
      observed.logEntries.push(entry);
      overrides.logger?.(entry);
    },
  });
  return Object.assign(client, { log });
}

/**
 * An emulator and a client of it for the cases of one describe block: started before them, faults
 * cleared after each, both closed after them. `started` receives the two once they are up.
 */
export function useEmulatorClient(started: (emulator: Emulator, client: ReturnType<typeof clientFor>) => void): void {
  let running: { emulator: Emulator; client: ReturnType<typeof clientFor> } | undefined;
  before(async () => {
    const emulator = await startEmulator({ apiKey: testApiKey });
    running = { emulator, client: clientFor(emulator) };
    started(running.emulator, running.client);
  });
  afterEach(() => running?.emulator.clearFaults());
  after(async () => {
    await running?.client.close();
    await running?.emulator.close();
  });
}

/** Awaits a rejection that must be a PlatformError, and keeps it for the leak check. */
export async function failure(work: Promise<unknown> | (() => Promise<unknown>)): Promise<PlatformError> {
  try {
    await (typeof work === 'function' ? work() : work);
  } catch (error) {
    observed.errors.push(error);
    assert.ok(isPlatformError(error), `expected a PlatformError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected the call to fail');
}

export interface StreamOutcome {
  chunks: ChatCompletionChunk[];
  error?: PlatformError;
}

/** Reads a chat stream to its end, keeping the chunks that arrived before any failure. */
export async function drain(stream: AsyncIterable<ChatCompletionChunk>): Promise<StreamOutcome> {
  const chunks: ChatCompletionChunk[] = [];
  try {
    for await (const chunk of stream) chunks.push(chunk);
    return { chunks };
  } catch (error) {
    observed.errors.push(error);
    assert.ok(isPlatformError(error), `expected a PlatformError, got ${String(error)}`);
    return { chunks, error };
  }
}

export function headerOf(request: { headers: Record<string, string | string[] | undefined> }, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The repository root (the folder holding package.json), from the source or the built tree. */
export function repositoryRoot(): string {
  let directory = __dirname;
  while (!existsSync(join(directory, 'package.json'))) {
    const parent = dirname(directory);
    if (parent === directory) throw new Error('package.json not found above ' + __dirname);
    directory = parent;
  }
  return directory;
}

/** What a streamed answer spells out, folded by the chat's own stream runner (src/chat/model/streamRun.ts). */
export async function answerOf(chunks: readonly ChatCompletionChunk[]): Promise<{ content: string; reasoning: string; finishReason?: string; usage?: Usage }> {
  async function* replay(): AsyncGenerator<ChatCompletionChunk> {
    yield* chunks;
  }
  const answer: { content: string; reasoning: string; finishReason?: string; usage?: Usage } = { content: '', reasoning: '' };
  const outcome = await runStream(replay(), {
    signal: new AbortController().signal,
    onDelta: (content, reasoning) => {
      answer.content += content;
      answer.reasoning += reasoning;
    },
  });
  assert.equal(outcome.status, 'done', outcome.error?.message);
  if (outcome.finishReason !== undefined) answer.finishReason = outcome.finishReason;
  if (outcome.usage !== undefined) answer.usage = outcome.usage;
  return answer;
}

/**
 * The chunks a chat stream's reads decode to, through the parser and decoder the client reads
 * chat streams with, in reads split wherever a test chooses; `done` once [DONE] arrived.
 */
export function decodeReads(reads: Iterable<Uint8Array>): { chunks: ChatCompletionChunk[]; done: boolean } {
  const parser = new SseParser();
  const decoder = new ChatChunkDecoder({ api: 'inference', method: 'POST', path: '/v1/chat/completions' });
  const chunks: ChatCompletionChunk[] = [];
  const take = (events: string[]): boolean => {
    for (const data of events) {
      const chunk = decoder.decode(data);
      if (chunk === null) return true;
      chunks.push(chunk);
    }
    return false;
  };
  for (const read of reads) if (take(parser.feed(read))) return { chunks, done: true };
  return { chunks, done: take(parser.end()) };
}
