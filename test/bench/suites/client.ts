/**
 * Per-request overhead of the platform client: sequential GET /models through PlatformClient
 * against a bare undici request on a keep-alive Pool, on the same local emulator. Short blocks of
 * the two alternate in ABBA order, so that load from elsewhere on the machine hits both alike, and
 * the median block mean of each is reported.
 */
import { Pool } from 'undici';
import { PlatformClient } from '../../../src/platform/client';
import { startEmulator } from '../../emulator';
import type { BenchFigure, BenchSuite } from '../report';
import { best, median } from '../stats';

const requestsPerBlock = 100;
const rounds = 30;

async function microsecondsPerRequest(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  for (let index = 0; index < requestsPerBlock; index++) await work();
  return ((performance.now() - started) * 1000) / requestsPerBlock;
}

export const suite: BenchSuite = {
  name: 'client request overhead',
  async run(): Promise<BenchFigure[]> {
    const emulator = await startEmulator({ apiKey: 'bench-key' });
    const client = new PlatformClient({
      trainingUrl: emulator.trainingUrl,
      inferenceUrl: emulator.inferenceUrl,
      credentials: { getApiKey: async () => emulator.apiKey },
      project: 'bench/overhead',
    });
    const origin = new URL(emulator.url).origin;
    const pool = new Pool(origin, { connections: 1 });
    const path = new URL(emulator.inferenceUrl).pathname + '/models';
    const headers = { authorization: `Bearer ${emulator.apiKey}`, 'compat-project': 'bench/overhead', accept: 'application/json' };
    const viaClient = () => client.inference.listModels();
    const bare = async () => {
      const { statusCode, body } = await pool.request({ path, method: 'GET', headers });
      const value = await body.json();
      if (statusCode !== 200) throw new Error(`status ${statusCode}`);
      return value;
    };
    try {
      // Warm up both paths (connections, JIT) before measuring.
      await microsecondsPerRequest(viaClient);
      await microsecondsPerRequest(bare);
      const ours: number[] = [];
      const theirs: number[] = [];
      for (let round = 0; round < rounds; round++) {
        ours.push(await microsecondsPerRequest(viaClient));
        theirs.push(await microsecondsPerRequest(bare));
        theirs.push(await microsecondsPerRequest(bare));
        ours.push(await microsecondsPerRequest(viaClient));
        // The emulator records every request; the benchmark does not need them.
        emulator.requests.length = 0;
      }
      return [
        {
          name: 'mean time per sequential GET /models',
          value: median(ours),
          unit: 'µs',
          peer: { name: 'bare undici Pool.request', value: median(theirs) },
          better: 'lower',
          goal: { kind: 'ratio', atMost: 1.1 },
          note: `median of ${rounds * 2} interleaved blocks of ${requestsPerBlock} requests each (fastest blocks ${best(ours).toFixed(1)} vs ${best(theirs).toFixed(1)} µs), keep-alive, local emulator`,
        },
      ];
    } finally {
      await client.close();
      await pool.close();
      await emulator.close();
    }
  },
};
