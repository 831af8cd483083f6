/**
 * SSE parse throughput: our parser and chunk decoder against the openai package's stream decoder,
 * on the very same bytes in the very same read sizes, both reading them from a ReadableStream of
 * those reads and both handing each parsed chunk to an async iterator, as a chat view consumes
 * them. The stream is the only source on both sides (openai's decoder takes it inside a Response,
 * which hands back that same stream as its body), so what differs is the parser.
 */
import { Stream } from 'openai/core/streaming';
import { ChatChunkDecoder, SseParser } from '../../../src/platform/client';
import type { ChatCompletionChunk } from '../../../src/platform/client/types';
import type { BenchFigure, BenchSuite } from '../report';
import { median } from '../stats';
import { timeAlternately } from '../timing';

const chunkCount = 20_000;
/** Rounds of ours, openai, openai, ours: two timed runs of each per round. */
const rounds = 8;

/** A deterministic pseudo-random sequence, so every run measures the same stream. */
function sequence(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const words = ['the', 'model', 'learns', 'from', 'rewards', ' — ', 'très', 'bien', '東京', 'は', '🙂', 'step', 'policy', 'gradient', 'token', '\n', 'value', 'naïve'];

/** A long chat stream as a server sends it: role, reasoning and content deltas, finish, usage, [DONE]. */
function syntheticStream(): Uint8Array {
  const random = sequence(42);
  const head = { id: 'chatcmpl-Bench0123456789abcdefXYZ', object: 'chat.completion.chunk', created: 1748736123, model: 'OpenPipe/Qwen3-14B-Instruct' };
  const lines: string[] = [];
  const event = (payload: unknown) => lines.push(`data: ${JSON.stringify(payload)}\n\n`);
  event({ ...head, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] });
  for (let index = 1; index < chunkCount - 2; index++) {
    const text = Array.from({ length: 1 + Math.floor(random() * 3) }, () => words[Math.floor(random() * words.length)]).join(' ');
    const delta = index < chunkCount / 5 ? { reasoning: text } : { content: text };
    event({ ...head, choices: [{ index: 0, delta, finish_reason: null }] });
    if (index % 25 === 0) lines.push(': keep-alive\n\n');
  }
  event({ ...head, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
  event({ ...head, choices: [], usage: { prompt_tokens: 120, completion_tokens: 41000, total_tokens: 41120 } });
  lines.push('data: [DONE]\n\n');
  return new TextEncoder().encode(lines.join(''));
}

/** Cuts the bytes into reads of the sizes a socket hands out: a few hundred bytes to 16 KiB. */
function splitIntoReads(bytes: Uint8Array): Uint8Array[] {
  const random = sequence(7);
  const sizes = [180, 512, 1460, 4096, 16384];
  const reads: Uint8Array[] = [];
  for (let start = 0; start < bytes.length;) {
    const size = sizes[Math.floor(random() * sizes.length)]!;
    reads.push(bytes.slice(start, start + size));
    start += size;
  }
  return reads;
}

/**
 * One event per read, as a chat arrives at model speed: the server writes each chunk as the model
 * makes it, and each reaches the client in a read of its own (keep-alive comments included).
 */
function oneEventPerRead(bytes: Uint8Array): Uint8Array[] {
  const text = new TextDecoder().decode(bytes);
  const encoder = new TextEncoder();
  return text
    .split(/(?<=\n\n)/)
    .filter((event) => event.length > 0)
    .map((event) => encoder.encode(event));
}

/** The reads as a socket's body: a fresh ReadableStream that hands out one read per pull. */
function bodyOf(reads: Uint8Array[]): ReadableStream<Uint8Array> {
  let index = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (index < reads.length) controller.enqueue(reads[index++]!);
      else controller.close();
    },
  });
}

/** Our parser and decoder in the loop the client runs over a response body, one chunk per step. */
async function* ourChunks(body: ReadableStream<Uint8Array>): AsyncGenerator<ChatCompletionChunk> {
  const parser = new SseParser();
  const decoder = new ChatChunkDecoder({ api: 'inference', method: 'POST', path: '/v1/chat/completions' });
  for await (const read of body) {
    for (const data of parser.feed(read)) {
      const chunk = decoder.decode(data);
      if (chunk === null) return;
      yield chunk;
    }
  }
}

async function ours(reads: Uint8Array[]): Promise<number> {
  let count = 0;
  for await (const _chunk of ourChunks(bodyOf(reads))) count++;
  return count;
}

/** The reads taken from the stream and nothing else: the cost both sides share, under any parser. */
async function readsOnly(reads: Uint8Array[]): Promise<number> {
  let count = 0;
  for await (const _read of bodyOf(reads)) count++;
  return count;
}

async function theirs(reads: Uint8Array[]): Promise<number> {
  const response = new Response(bodyOf(reads), { headers: { 'content-type': 'text/event-stream' } });
  const stream = Stream.fromSSEResponse<ChatCompletionChunk>(response, new AbortController());
  let count = 0;
  for await (const _chunk of stream) count++;
  return count;
}

export const suite: BenchSuite = {
  name: 'SSE parsing',
  async run(): Promise<BenchFigure[]> {
    const bytes = syntheticStream();
    const megabytes = bytes.length / 1e6;
    const figure = async (name: string, reads: Uint8Array[], shape: string): Promise<BenchFigure> => {
      const oursCount = await ours(reads);
      const theirsCount = await theirs(reads);
      if (oursCount !== chunkCount || theirsCount !== chunkCount) throw new Error(`chunk counts differ: ours ${oursCount}, openai ${theirsCount}, expected ${chunkCount}`);
      const times = await timeAlternately(
        () => ours(reads),
        () => theirs(reads),
        rounds,
        2,
      );
      // What the stream costs alone, timed between the same runs: with one event per read it is
      // most of our time, and no parser can go under it.
      const floor = median(
        (
          await timeAlternately(
            () => readsOnly(reads),
            () => readsOnly(reads),
            2,
            1,
          )
        ).ours,
      );
      const oursMs = median(times.ours);
      const theirsMs = median(times.theirs);
      const parsersOnly = (theirsMs - floor) / Math.max(oursMs - floor, 0.001);
      return {
        name,
        value: megabytes / (median(times.ours) / 1000),
        unit: 'MB/s',
        peer: { name: 'openai Stream.fromSSEResponse', value: megabytes / (median(times.theirs) / 1000) },
        better: 'higher',
        goal: { kind: 'ratio', atLeast: 3 },
        note: `${chunkCount} chunks, ${megabytes.toFixed(1)} MB in ${reads.length} ${shape} from the same ReadableStream, chunks taken through an async iterator on both sides, median of ${times.ours.length} alternating runs each; taking the reads from the stream alone costs ${floor.toFixed(1)} ms of our ${oursMs.toFixed(1)} ms (theirs ${theirsMs.toFixed(1)} ms): the parsers' own work, without it, is ${parsersOnly.toFixed(1)}x faster on our side`,
      };
    };
    return [
      await figure('SSE parse + chunk decode throughput, reads of 180 B to 16 KiB', splitIntoReads(bytes), 'reads of 180 B to 16 KiB'),
      await figure('SSE parse + chunk decode throughput, one event per read (a chat at model speed)', oneEventPerRead(bytes), 'reads of one event each'),
    ];
  },
};
