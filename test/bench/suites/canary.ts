/**
 * The canary's budget under pressure: a model whose training adds a checkpoint every two minutes
 * for two hours (60 checkpoints, SIMULATED time), a pinned set of 100 prompts scored by exact match
 * and an LLM judge (two requests an answer), a budget of 40 requests per checkpoint and 200 an hour,
 * and 15 % of chat completions answered 429 (each retry is a request too). Everything else is real:
 * the budget's plan and allowance (canaryBudget.ts), the evaluation run with its scheduler and
 * retries, the client, the emulator. Measured at the emulator: the most requests one checkpoint
 * cost and the most in any hour, against the budget; the peer is the same checkpoints evaluated on
 * the whole set with no budget (one measured, times the checkpoints of an hour).
 */
import { PlatformClient } from '../../../src/platform/client';
import { CheckpointAllowance, checkpointPlan, HourlySpend, type CanaryBudgetLimits } from '../../../src/evals/model/canary/canaryBudget';
import { canaryParameters } from '../../../src/evals/model/canary/canaryPins';
import type { EvalModelRef, EvalSample } from '../../../src/evals/model/evalModel';
import type { NamedScorer } from '../../../src/platform/scoring/scorerSpec';
import { EvalRun, type EvalRunDependencies } from '../../../src/evals/model/evalRun';
import { RegexMatcher } from '../../../src/platform/scoring/regexMatcher';
import { startEmulator } from '../../emulator';
import { arithmeticSamples } from '../../emulator/evalSets';
import { GENERATED_PROJECT } from '../../emulator/seed';
import { DEFAULT_ENTITY } from '../../emulator/state';
import type { BenchFigure, BenchSuite } from '../report';

const minute = 60_000;
const hour = 60 * minute;
const checkpoints = 60;
const everyMs = 2 * minute;
const limits: CanaryBudgetLimits = { perCheckpoint: 40, perHour: 200 };
const scorers: NamedScorer[] = [
  { name: 'exact match', spec: { kind: 'exactMatch' } },
  { name: 'judge', spec: { kind: 'judge', model: 'Qwen/Qwen2.5-7B-Instruct', rubric: 'The final number is right.' } },
];

export const suite: BenchSuite = {
  name: 'canary: requests within the budget',
  async run(): Promise<BenchFigure[]> {
    const emulator = await startEmulator({ apiKey: 'bench-key' });
    const client = new PlatformClient({ trainingUrl: emulator.trainingUrl, inferenceUrl: emulator.inferenceUrl, credentials: { getApiKey: async () => emulator.apiKey } });
    const regex = new RegexMatcher();
    try {
      await emulator.createModelWithCheckpoints('bench-canary', checkpoints + 1);
      const base = `wandb-artifact:///${DEFAULT_ENTITY}/${GENERATED_PROJECT}/bench-canary`;
      const samples: EvalSample[] = arithmeticSamples(100, 7, 'canary').map((sample, line) => ({ id: sample.id ?? `canary-${line}`, messages: sample.messages, reference: sample.reference, line }));
      const chatRequests = () => emulator.requests.filter((request) => request.path.endsWith('/chat/completions')).length;
      let now = 0;
      const evaluate = async (step: number, count: number, allowance?: CheckpointAllowance): Promise<number> => {
        const complete = async (api: 'training' | 'inference', request: Parameters<typeof client.training.chatCompletion>[0], signal?: AbortSignal) => {
          allowance?.take();
          const reply = await (api === 'training' ? client.training : client.inference).chatCompletion({ ...request, stream: false }, signal ? { signal } : {});
          const content = reply.choices[0]?.message.content;
          return { text: typeof content === 'string' ? content : '', ...(reply.choices[0]?.finish_reason ? { finishReason: reply.choices[0].finish_reason } : {}) };
        };
        const deps: EvalRunDependencies = {
          complete: (model, request, signal) => complete(model.api, request, signal),
          scoring: { regex, complete: async (request, signal) => (await complete('inference', request, signal)).text, command: { cwd: '.', trusted: false, allowed: new Set<string>() } },
          save: async () => undefined,
          describeFailure: (error) => (error instanceof Error ? error.message : String(error)),
          now: () => now,
        };
        const model: EvalModelRef = { id: `${base}:step${step}`, label: `step ${step}`, kind: 'checkpoint', api: 'training', step };
        const before = chatRequests();
        await new EvalRun({ samples: samples.slice(0, count), models: [model], scorers, parameters: canaryParameters, setPath: 'canary.evalset.jsonl', concurrency: 4 }, deps).start();
        return chatRequests() - before;
      };

      emulator.setRateLimit({ fraction: 0.15, retryAfterSeconds: 0, times: 1 });
      // The peer: one checkpoint on the whole set, no budget.
      const unbudgeted = await evaluate(0, samples.length);

      const spend = new HourlySpend();
      const spent: { at: number; requests: number }[] = [];
      let deferred = 0;
      for (let index = 1; index <= checkpoints; index++) {
        now = index * everyMs;
        const plan = checkpointPlan(samples.length, scorers, limits, spend, now);
        if (plan.waitUntil !== undefined) {
          deferred++;
          continue;
        }
        spent.push({ at: now, requests: await evaluate(index, plan.samples, new CheckpointAllowance(limits, spend, () => now)) });
      }
      const rateLimited = emulator.rateLimitedCount();
      emulator.setRateLimit(undefined);
      const perCheckpoint = Math.max(...spent.map((entry) => entry.requests));
      const inAnyHour = Math.max(...spent.map((entry) => spent.filter((other) => other.at >= entry.at && other.at < entry.at + hour).reduce((sum, other) => sum + other.requests, 0)));
      const checkpointsAnHour = hour / everyMs;
      return [
        {
          name: `canary requests for one checkpoint (100 prompts, exact match and a judge, 15 % answered 429)`,
          value: perCheckpoint,
          unit: 'requests',
          peer: { name: 'the same checkpoint on the whole set with no budget', value: unbudgeted },
          better: 'lower',
          goal: { kind: 'absolute', atMost: limits.perCheckpoint },
          note: `budget ${limits.perCheckpoint}; ${rateLimited} answers were 429 and retried within it`,
        },
        {
          name: `canary requests in any hour, a checkpoint every 2 minutes for 2 hours`,
          value: inAnyHour,
          unit: 'requests',
          peer: { name: `every checkpoint of an hour on the whole set with no budget (${checkpointsAnHour} x the one measured)`, value: unbudgeted * checkpointsAnHour },
          better: 'lower',
          goal: { kind: 'absolute', atMost: limits.perHour },
          note: `budget ${limits.perHour}; ${spent.length} of ${checkpoints} checkpoints evaluated, ${deferred} waited for room (the newest is evaluated when there is)`,
        },
      ];
    } finally {
      regex.dispose();
      await emulator.close();
    }
  },
};
