/**
 * A results file of about 100 MB (10,000 samples × 4 checkpoints, answers of some 2.5 KB), as a
 * cloned repository may hold: for the fault case and the benchmark of reading it.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

export const largeRun = { training: 'wandb-artifact:///team/project/agent', samples: 10_000, steps: [100, 200, 300, 400] } as const;

/**
 * Writes the file in a child process with the real serializer, so the test's own heap holds none of
 * it: garbage of the writing would otherwise be collected while the reading is measured.
 */
export function writeLargeRun(file: string): void {
  const script = `
    const { serializeRunFile } = require(${JSON.stringify(join(__dirname, '..', '..', 'src', 'evals', 'model', 'resultsFile.js'))});
    const training = ${JSON.stringify(largeRun.training)};
    const models = ${JSON.stringify(largeRun.steps)}.map((step) => ({ id: training + ':step' + step, label: 'step ' + step, kind: 'checkpoint', api: 'training', step, trainingModelId: training }));
    const filler = 'The answer, reasoned step by step at some length. '.repeat(50);
    const answers = [];
    for (const model of models) for (let sample = 0; sample < ${largeRun.samples}; sample++) answers.push({
      model: model.id, sample: 's' + sample, draw: 0, key: model.id + '|s' + sample + '|0', text: (sample % 7) + ' ' + filler,
      finishReason: 'stop', scores: { exact: (sample + model.step) % 3 === 0 ? 1 : 0 }, latencyMs: 120,
    });
    require('node:fs').writeFileSync(process.argv[1], serializeRunFile({
      kind: 'rl-studio-eval', version: 1, set: { path: 'evals/large.jsonl', hash: 'h', samples: ${largeRun.samples} },
      scorers: [{ name: 'exact', spec: { kind: 'exactMatch' } }], parameters: { temperature: 0, seed: 1, n: 1, maxTokens: 256 },
      models, answers, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T01:00:00.000Z',
    }));`;
  execFileSync(process.execPath, ['-e', script, file], { stdio: 'inherit' });
}
