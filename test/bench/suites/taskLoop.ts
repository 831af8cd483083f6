/**
 * One step of the loop of a task: 64 prompts × 8 answers against the emulator, every chat completion
 * held for a fixed latency, at a concurrency of 8, scored by exact match, grouped and written to
 * the step file, through the real loop (TaskLoop), scheduler, client and emulator. The peer is the
 * ideal: 8 requests in flight all the time, so sampling takes (64 / 8) × the latency. RL Studio's
 * own work (scoring, grouping, writing, the run file) is the same step with answers that come at
 * once (no request), against the step as measured.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PlatformClient } from '../../../src/platform/client';
import { RegexMatcher } from '../../../src/platform/scoring/regexMatcher';
import { scoreAnswer } from '../../../src/platform/scoring/scoring';
import { serializeRunState } from '../../../src/taskRuns/model/runState';
import { parseTaskFile } from '../../../src/taskRuns/model/taskFile';
import { RunBudget } from '../../../src/taskRuns/model/taskPlan';
import { TaskLoop, type LoopDependencies, type LoopPrompt } from '../../../src/taskRuns/model/taskLoop';
import type { SampledAnswer } from '../../../src/taskRuns/model/trajectoryGroups';
import { startEmulator } from '../../emulator';
import { arithmeticSamples } from '../../emulator/evalSets';
import type { BenchFigure, BenchSuite } from '../report';

const latencyMs = 200;
const concurrency = 8;
const prompts = 64;
const groupSize = 8;

export const suite: BenchSuite = {
  name: 'task loop: one step of 64 prompts x 8 answers',
  async run(): Promise<BenchFigure[]> {
    const emulator = await startEmulator({ apiKey: 'bench-key', completionLatencyMs: latencyMs });
    const client = new PlatformClient({ trainingUrl: emulator.trainingUrl, inferenceUrl: emulator.inferenceUrl, credentials: { getApiKey: async () => emulator.apiKey } });
    const regex = new RegexMatcher();
    const folder = mkdtempSync(join(tmpdir(), 'rl-studio-loop-'));
    try {
      const seeded = emulator.seeded!;
      const model = `wandb-artifact:///${seeded.trainedModelEntity}/${seeded.trainedModelProject}/${seeded.trainedModelName}:step10`;
      const task = parseTaskFile(
        JSON.stringify({
          model: 'e/p/m',
          prompts: 'p',
          reward: { kind: 'exactMatch' },
          groupSize,
          promptsPerStep: prompts,
          steps: 1,
          concurrency,
          sampling: { temperature: 1, maxTokens: 32 },
          budget: { requests: 10_000, tokens: 100_000_000 },
        }),
        'bench',
      ).task!;
      const samples: LoopPrompt[] = arithmeticSamples(prompts, 5, 'loop').map((sample, line) => ({ id: sample.id ?? `loop-${line}`, messages: sample.messages, reference: sample.reference }));
      const recorded = new Map<string, SampledAnswer[]>();
      const deps = (instant: boolean, file: string): LoopDependencies => ({
        sample: async (prompt, signal) => {
          if (instant) return { answers: recorded.get(prompt.id)! };
          const reply = await client.training.chatCompletion({ model, messages: prompt.messages, n: groupSize, temperature: 1, max_tokens: 32, logprobs: true, stream: false }, { signal });
          const answers = reply.choices.map((choice) => ({
            text: choice.message.content ?? '',
            finishReason: choice.finish_reason ?? 'stop',
            ...(choice.logprobs ? { logprobs: choice.logprobs } : {}),
          }));
          recorded.set(prompt.id, answers);
          return { answers };
        },
        reward: async (prompt, answers) => {
          const rewards: number[] = [];
          for (const answer of answers) {
            const score = await scoreAnswer({ kind: 'exactMatch' }, prompt, answer, { regex, complete: async () => '', command: { cwd: folder, trusted: false, allowed: new Set() } });
            rewards.push(typeof score === 'number' ? score : 0);
          }
          return rewards;
        },
        startJob: async () => 'job',
        followJob: async () => ({ ok: true }),
        latestCheckpointStep: async () => 10,
        evaluateHeldOut: async () => undefined,
        readStepFile: async () => readFile(join(folder, file), 'utf8').catch(() => undefined),
        appendToStepFile: async (_index, text) => appendFile(join(folder, file), text),
        writeState: async (state) => writeFile(join(folder, `${file}.run.json`), serializeRunState(state)),
        now: () => Date.now(),
        log: () => undefined,
      });
      const step = async (instant: boolean, round: number): Promise<number> => {
        const loop = new TaskLoop(task, samples, new RunBudget(task.budget), deps(instant, `${instant ? 'instant' : 'real'}-${round}.jsonl`), { taskPath: 't', modelId: 'm', modelName: 'm' });
        const started = performance.now();
        const state = await loop.run(new AbortController().signal);
        if (state.status !== 'finished' || state.steps[0]!.groups !== prompts) throw new Error(`the step did not finish: ${JSON.stringify(state.failure ?? state.steps[0])}`);
        return performance.now() - started;
      };
      const real: number[] = [];
      const own: number[] = [];
      for (let round = 0; round < 3; round++) {
        real.push(await step(false, round));
        own.push(await step(true, round));
      }
      const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
      const ideal = (prompts / concurrency) * latencyMs;
      return [
        {
          name: `a loop step of ${prompts} prompts x ${groupSize} answers at concurrency ${concurrency} (${latencyMs} ms a completion)`,
          value: median(real),
          unit: 'ms',
          peer: { name: `the ideal: ${concurrency} requests in flight all the time`, value: ideal },
          better: 'lower',
          goal: { kind: 'ratio', atMost: 1.1 },
          note: `median of 3; sampling, exact match, grouping, the step file and the run file`,
        },
        {
          name: "RL Studio's own work in that step (scoring, grouping, writing)",
          value: median(own),
          unit: 'ms',
          peer: { name: 'the step as measured', value: median(real) },
          better: 'lower',
          goal: { kind: 'ratio', atMost: 0.05 },
          note: 'the same step with answers that come at once',
        },
      ];
    } finally {
      regex.dispose();
      rmSync(folder, { recursive: true, force: true });
      await emulator.close();
    }
  },
};
