import type { AnswerRecord, EvalModelRef, EvalParameters, EvalRunFile, EvalSample } from '../../../src/evals/model/evalModel';

export const parameters: EvalParameters = { temperature: 0.7, seed: 42, n: 2, maxTokens: 256 };

export function sample(id: string, prompt = `question ${id}`, reference?: string): EvalSample {
  const made: EvalSample = { id, messages: [{ role: 'user', content: prompt }], line: 0 };
  if (reference !== undefined) made.reference = reference;
  return made;
}

export function checkpoint(step: number, trainingModelId = 'wandb-artifact:///team/proj/agent'): EvalModelRef {
  return { id: `${trainingModelId}:step${step}`, label: `step ${step}`, kind: 'checkpoint', api: 'training', step, trainingModelId };
}

export function answer(model: string, sampleId: string, draw: number, scores: AnswerRecord['scores'], extra: Partial<AnswerRecord> = {}): AnswerRecord {
  const made: AnswerRecord = { model, sample: sampleId, draw, key: `${model}|${sampleId}|${draw}`, text: 'an answer', scores, ...extra };
  // `text: undefined` in `extra` means no text, as a file read back has none.
  if (made.text === undefined) delete made.text;
  return made;
}

export function run(models: EvalModelRef[], answers: AnswerRecord[]): EvalRunFile {
  return {
    kind: 'rl-studio-eval',
    version: 1,
    set: { path: 'evals/set.jsonl', hash: 'abc', samples: 3 },
    scorers: [{ name: 'exact', spec: { kind: 'exactMatch' } }],
    parameters,
    models,
    answers,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  };
}
