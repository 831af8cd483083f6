/**
 * Peak memory of the extension host while the platform client meets a 600 MB JSON answer, against
 * the peak for the largest answer it does accept (one of exactly the 32 MiB cap, read and parsed
 * whole). The refused answer must cost no more than the accepted one (25 % allowed for sampling
 * noise): reading stops at the cap and nothing is decoded. A 1 MB answer's peak is given in the note for scale.
 *
 * Memory is the JS heap plus ArrayBuffer memory (socket reads are Buffers, outside the heap),
 * sampled every 5 ms, as growth over the value just before the call. The server runs in the same
 * process and writes lazily from one reused buffer, so it adds almost nothing.
 */
import type { ServerResponse } from 'node:http';
import { PlatformClient } from '../../../src/platform/client';
import { repeated, startServer, writeLazily } from '../../fault/support/clientServers';
import type { BenchFigure, BenchSuite } from '../report';
import { median } from '../stats';
import { collector } from '../heldMemory';

const MiB = 2 ** 20;
const cap = 32 * MiB;
const runs = 3;

/**
 * Writes a JSON model list of exactly `total` bytes, lazily (test/fault/support/clientServers.ts),
 * from reused buffers: the head, 64 KiB blocks of entries while they fit, spaces, and the last entry.
 */
async function writeList(response: ServerResponse, total: number): Promise<void> {
  const head = Buffer.from('{"object":"list","data":[');
  const entry = Buffer.from('{"id":"m-0123456789abcdef","object":"model","created":1,"owned_by":"bench"},');
  const filler = Buffer.concat(Array.from({ length: Math.floor((64 * 1024) / entry.length) }, () => entry));
  const tail = Buffer.from('{"id":"last","object":"model","created":1,"owned_by":"bench"}]}');
  const spaces = repeated(' ');
  const fillers = Math.floor((total - head.length - tail.length) / filler.length);
  response.writeHead(200, { 'content-type': 'application/json' });
  const writer = writeLazily(response, total - tail.length, (index) => (index === 0 ? head : index <= fillers ? filler : spaces), false);
  await writer.done;
  if (writer.finished) response.end(tail);
}

function memory(): number {
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

async function peakGrowthMiB(work: () => Promise<unknown>, gc: () => void): Promise<number> {
  gc();
  await new Promise((resolve) => setTimeout(resolve, 20));
  const start = memory();
  let peak = start;
  const sampler = setInterval(() => (peak = Math.max(peak, memory())), 5);
  try {
    await work().catch(() => undefined);
    peak = Math.max(peak, memory());
  } finally {
    clearInterval(sampler);
  }
  return (peak - start) / MiB;
}

export const suite: BenchSuite = {
  name: 'answer size caps',
  async run(): Promise<BenchFigure[]> {
    let size = 0;
    const server = await startServer((_request, response) => writeList(response, size));
    const url = server.apiUrl;
    const client = new PlatformClient({ trainingUrl: url, inferenceUrl: url, credentials: { getApiKey: async () => 'bench-key' }, maxRetries: 0, timeoutMs: 120_000 });
    const gc = collector();
    const peakFor = async (bytes: number) => {
      size = bytes;
      return peakGrowthMiB(() => client.inference.listModels(), gc);
    };
    try {
      // Warm up the connection and the code paths.
      await peakFor(MiB);
      const huge: number[] = [];
      const atCap: number[] = [];
      const small: number[] = [];
      for (let index = 0; index < runs; index++) {
        huge.push(await peakFor(600e6));
        atCap.push(await peakFor(cap));
        small.push(await peakFor(MiB));
      }
      return [
        {
          name: 'peak memory growth for a 600 MB JSON answer (refused at the cap)',
          value: median(huge),
          unit: 'MiB',
          peer: { name: 'a 32 MiB answer (the cap) read and parsed whole', value: median(atCap) },
          better: 'lower',
          // No worse than the largest answer the client accepts, with room for sampling noise.
          goal: { kind: 'ratio', atMost: 1.25 },
          note: `heap + ArrayBuffers, median of ${runs}; a 1 MB answer read whole peaks at ${median(small).toFixed(1)} MiB`,
        },
      ];
    } finally {
      await client.close();
      await server.close();
    }
  },
};
