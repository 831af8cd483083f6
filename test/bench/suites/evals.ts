/**
 * Evaluation throughput: 1,000 samples x 5 checkpoints through the real client against the emulator,
 * every chat completion held for a fixed latency, at the default concurrency of 8. The peer is the
 * ideal: 8 requests in flight all the time, so the run takes (requests / 8) x latency. Then the
 * same run again with its results file: every answer is reused, and the figure is the requests
 * made (0).
 */
import { PlatformClient } from '../../../src/platform/client';
import type { EvalModelRef, EvalSample } from '../../../src/evals/model/evalModel';
import type { NamedScorer } from '../../../src/platform/scoring/scorerSpec';
import { EvalRun, type EvalRunDependencies } from '../../../src/evals/model/evalRun';
import { RegexMatcher } from '../../../src/platform/scoring/regexMatcher';
import { startEmulator } from '../../emulator';
import { arithmeticSamples } from '../../emulator/evalSets';
import type { BenchFigure, BenchSuite } from '../report';

const latencyMs = 40;
const concurrency = 8;
const sampleCount = 1_000;
const steps = [4, 8, 12, 16, 20];
const scorers: NamedScorer[] = [{ name: 'exact match', spec: { kind: 'exactMatch' } }];

export const suite: BenchSuite = {
  name: 'evals: checkpoint evaluation throughput',
  async run(): Promise<BenchFigure[]> {
    const emulator = await startEmulator({ apiKey: 'bench-key', completionLatencyMs: latencyMs });
    const client = new PlatformClient({ trainingUrl: emulator.trainingUrl, inferenceUrl: emulator.inferenceUrl, credentials: { getApiKey: async () => emulator.apiKey } });
    const regex = new RegexMatcher();
    try {
      const seeded = emulator.seeded!;
      const base = `wandb-artifact:///${seeded.trainedModelEntity}/${seeded.trainedModelProject}/${seeded.trainedModelName}`;
      const models: EvalModelRef[] = steps.map((step) => ({ id: `${base}:step${step}`, label: `step ${step}`, kind: 'checkpoint', api: 'training', step, trainingModelId: seeded.trainedModelId }));
      const samples: EvalSample[] = arithmeticSamples(sampleCount, 11, 'bench').map((sample, line) => ({
        id: sample.id ?? `bench-${line}`,
        messages: sample.messages,
        reference: sample.reference,
        line,
      }));
      const parameters = { temperature: 0, seed: 0, n: 1, maxTokens: 64 };
      const deps: EvalRunDependencies = {
        complete: async (_model, request, signal) => {
          const reply = await client.training.chatCompletion({ ...request, stream: false }, { signal });
          const content = reply.choices[0]?.message.content;
          return { text: typeof content === 'string' ? content : '' };
        },
        scoring: { regex, complete: async () => '', command: { cwd: '.', trusted: false, allowed: new Set<string>() } },
        save: async () => undefined,
        describeFailure: (error) => (error instanceof Error ? error.message : String(error)),
      };
      const input = { samples, models, parameters, scorers, setPath: 'bench.evalset.jsonl', concurrency };
      const requests = samples.length * models.length;
      const started = performance.now();
      const first = await new EvalRun(input, deps).start();
      const elapsed = performance.now() - started;
      const failed = first.answers.filter((answer) => answer.error !== undefined).length;
      if (failed > 0) throw new Error(`${failed} answers failed`);
      const ideal = (requests / concurrency) * latencyMs;

      const before = emulator.requests.length;
      await new EvalRun({ ...input, existing: first }, deps).start();
      const again = emulator.requests.length - before;
      return [
        {
          name: `throughput, ${sampleCount.toLocaleString('en-US')} samples x ${models.length} checkpoints at concurrency ${concurrency}`,
          value: (requests / elapsed) * 1000,
          unit: 'requests/s',
          peer: { name: `the ideal: ${concurrency} in flight all the time at ${latencyMs} ms each`, value: (requests / ideal) * 1000 },
          better: 'higher',
          goal: { kind: 'ratio', atLeast: 0.9 },
          note: `${(elapsed / 1000).toFixed(1)} s against ${(ideal / 1000).toFixed(1)} s ideal; scored by exact match as the answers come`,
        },
        {
          name: 'requests of a re-run with every answer in the results file',
          value: again,
          unit: 'requests',
          better: 'lower',
          goal: { kind: 'absolute', atMost: 0 },
        },
      ];
    } finally {
      regex.dispose();
      await client.close();
      await emulator.close();
    }
  },
};
