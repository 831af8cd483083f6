/**
 * The emulator's graded answers: arithmetic questions answered right as often as a checkpoint's
 * step says, the same every time for the same request, so that a test of checkpoint evaluation
 * knows which step wins the fixture eval set.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEmulator } from '../../emulator';
import { completionTokenCount, content, generateCompletion } from '../../emulator/completions';
import type { Emulator } from '../../emulator/contract';
import { ACCURACY_CURVE, checkpointAccuracy, FIXED_ACCURACY } from '../../emulator/evalAccuracy';
import { arithmeticQuestion } from '../../emulator/evalQuestions';
import { arithmeticSamples, evalSetText } from '../../emulator/evalSets';
import { repositoryRoot } from '../webhooks/support/fixtures';
import { call } from './client';

interface Sample {
  id?: string;
  messages: { role: string; content: string }[];
  reference: string;
}

const readSamples = (...path: string[]): Sample[] =>
  readFileSync(join(repositoryRoot(), ...path), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Sample);

const fixture = readSamples('test', 'fixtures', 'evals', 'arith.evalset.jsonl');
const demoSet = readSamples('test', 'vscode', 'demo-workspace', 'evals', 'arith.evalset.jsonl');
/** The scorer the fixtures are meant for: the answer equals the reference, white space at the ends and case ignored. */
const exactMatch = (answer: string, reference: string) => answer.trim().toLowerCase() === reference.trim().toLowerCase();
const lastUser = (sample: Sample) => sample.messages.filter((message) => message.role === 'user').at(-1)!.content;

describe('emulator: eval questions', () => {
  it('recognises arithmetic in symbols and words, and leaves other prompts (and uneven division) alone', () => {
    assert.deepEqual(arithmeticQuestion('What is 17 + 25?'), { left: 17, operator: '+', right: 25, result: 42 });
    assert.equal(arithmeticQuestion('Compute 12 × 7.')?.result, 84);
    assert.equal(arithmeticQuestion('Question 3: what is 9 minus 11')?.result, -2);
    assert.equal(arithmeticQuestion('Calculate 144 divided by 12')?.result, 12);
    assert.equal(arithmeticQuestion('what is 6 x 7')?.result, 42);
    assert.equal(arithmeticQuestion('What is 7 / 2?'), undefined);
    assert.equal(arithmeticQuestion('What is 7 / 0?'), undefined);
    assert.equal(arithmeticQuestion('What is reinforcement learning?'), undefined);
  });

  it('grades every sample of the fixtures: the question is found and its result is the reference', () => {
    for (const sample of [...fixture, ...demoSet]) assert.equal(String(arithmeticQuestion(lastUser(sample))?.result), sample.reference, lastUser(sample));
    assert.equal(fixture.length, 40);
    assert.equal(demoSet.length, 100);
  });

  it('writes the fixture and the demo set from their seeds, and sets of any size the same way', () => {
    const text = (...path: string[]) => readFileSync(join(repositoryRoot(), ...path), 'utf8');
    assert.equal(text('test', 'fixtures', 'evals', 'arith.evalset.jsonl'), evalSetText(arithmeticSamples(40, 17, 'arith', 36)));
    assert.equal(text('test', 'vscode', 'demo-workspace', 'evals', 'arith.evalset.jsonl'), evalSetText(arithmeticSamples(100, 2026, 'demo')));
    assert.equal(text('test', 'vscode', 'demo-workspace', 'evals', 'arith-heldout.evalset.jsonl'), evalSetText(arithmeticSamples(30, 4242, 'heldout')));
    assert.equal(text('test', 'fixtures', 'evals', 'arith-heldout.evalset.jsonl'), evalSetText(arithmeticSamples(20, 99, 'heldout')));
    const large = arithmeticSamples(1000, 1, 'bench');
    assert.equal(new Set(large.map((sample) => sample.id)).size, 1000);
    for (const sample of large) assert.equal(String(arithmeticQuestion(sample.messages[1]!.content)?.result), sample.reference);
  });

  it('follows its documented curve: 0.30 at step 0, the peak of 0.92 at step 20, a regression to 0.72 at step 24, 0.85 from step 48', () => {
    assert.deepEqual(
      [0, 20, 24, 48, 5000].map((step) => checkpointAccuracy(step)),
      [0.3, 0.92, 0.72, 0.85, 0.85],
    );
    assert.ok(Math.abs(checkpointAccuracy(2.5) - 0.4) < 1e-9, 'linear between knots');
    const best = Array.from({ length: 200 }, (_, step) => step).reduce((a, b) => (checkpointAccuracy(b) > checkpointAccuracy(a) ? b : a));
    assert.equal(best, 20);
    for (const [, accuracy] of ACCURACY_CURVE) assert.ok(accuracy > 0 && accuracy < 1);
  });

  it('ranks steps 0 < 5 < 10 < 15 < 20 > 24 by exact match over the fixture and the demo set, whatever the seed', () => {
    for (const samples of [fixture, demoSet]) {
      for (let seed = 0; seed < 10; seed++) {
        const scores = [0, 5, 10, 15, 20, 24].map((step) => {
          const checkpoint = { trainingModel: 'emulator-entity/demo-project/agent-001', step };
          return samples.filter((sample) => exactMatch(content(generateCompletion({ model: 'm', messages: sample.messages, seed, temperature: 1, maxTokens: 256, checkpoint })), sample.reference))
            .length;
        });
        const [s0, s5, s10, s15, s20, s24] = scores as [number, number, number, number, number, number];
        assert.ok(s0 < s5 && s5 < s10 && s10 < s15 && s15 < s20 && s24 < s20, `seed ${seed}: ${scores.join(' ')}`);
      }
    }
  });

  it('answers the same request the same way, and another seed or draw differently', () => {
    const checkpoint = { trainingModel: 'e/p/m', step: 10 };
    const ask = (seed: number, draw: number, temperature = 1) =>
      fixture.map((sample) => content(generateCompletion({ model: 'wandb-artifact:///e/p/m:step10', messages: sample.messages, seed, draw, temperature, checkpoint })));
    assert.deepEqual(ask(1, 0), ask(1, 0));
    assert.notDeepEqual(ask(1, 0), ask(2, 0));
    assert.notDeepEqual(ask(1, 0), ask(1, 1));
    assert.deepEqual(ask(1, 0, 0), ask(1, 3, 0), 'at temperature 0 every draw is the same');
  });

  it('makes the mistakes scorers catch: off by one, the right number in another format, a repetitive answer cut by max_tokens', () => {
    const checkpoint = { trainingModel: 'e/p/m', step: 0 };
    const answers = fixture.flatMap((sample) => [1, 2, 3].map((seed) => ({ sample, completion: generateCompletion({ model: 'x', messages: sample.messages, seed, maxTokens: 64, checkpoint }) })));
    const texts = answers.map(({ completion }) => content(completion));
    const right = answers.filter(({ sample, completion }) => exactMatch(content(completion), sample.reference));
    const offByOne = answers.filter(({ sample, completion }) => Math.abs(Number(content(completion)) - Number(sample.reference)) === 1);
    const rightNumberOtherFormat = answers.filter(({ sample, completion }) => !exactMatch(content(completion), sample.reference) && content(completion).includes(sample.reference));
    const cut = answers.filter(({ completion }) => completion.finishReason === 'length');
    assert.ok(right.length > 0 && offByOne.length > 0 && rightNumberOtherFormat.length > 0 && cut.length > 0, JSON.stringify(texts.slice(0, 12)));
    for (const { completion } of cut) assert.equal(completionTokenCount(completion), 64);
    assert.equal(right.length + offByOne.length + rightNumberOtherFormat.length, answers.length, 'every wrong answer is one of the three');
  });

  it('answers with working and an "Answer: N" line unless asked for the number only', () => {
    const messages = [{ role: 'user', content: 'What is 17 + 25?' }];
    const lines = [1, 2, 3, 4, 5, 6].map((seed) => content(generateCompletion({ model: 'Qwen/Qwen3-235B-A22B-Instruct-2507', messages, seed })));
    assert.ok(
      lines.some((text) => /= 42\.\nAnswer: 42$/.test(text)),
      lines.join('\n---\n'),
    );
    assert.ok(lines.every((text) => /17 \+ 25/.test(text)));
  });
});

describe('emulator: evaluating checkpoints over the fixture eval set', () => {
  let emulator: Emulator;
  let trainingModel: string;
  before(async () => {
    emulator = await startEmulator({ secondsPerStep: 0.01 });
    const seeded = emulator.seeded!;
    trainingModel = `wandb-artifact:///${seeded.trainedModelEntity}/${seeded.trainedModelProject}/${seeded.trainedModelName}`;
  });
  after(() => emulator.close());

  /** Mean exact-match score of a model over the fixture, `n` draws a sample, through the given API. */
  async function accuracy(api: 'training' | 'inference', model: string, n: number, seed = 7): Promise<number> {
    let right = 0;
    for (const sample of fixture) {
      const answer = await call(emulator, api, 'POST', '/chat/completions', { body: { model, messages: sample.messages, temperature: 1, seed, n, max_tokens: 64 } });
      assert.equal(answer.status, 200, answer.text);
      assert.equal(answer.json.choices.length, n);
      for (const choice of answer.json.choices) if (exactMatch(choice.message.content, sample.reference)) right++;
    }
    return right / (fixture.length * n);
  }

  it('ranks the checkpoints as the curve does: step 20 wins, ahead of the later step 24', async () => {
    const steps = [0, 5, 10, 15, 20, 24];
    const scores = new Map<number, number>();
    for (const step of steps) scores.set(step, await accuracy('training', `${trainingModel}:step${step}`, 3));
    const winner = [...scores].reduce((a, b) => (b[1] > a[1] ? b : a))[0];
    assert.equal(winner, 20, JSON.stringify([...scores]));
    for (const [lower, higher] of [
      [0, 5],
      [5, 10],
      [10, 15],
      [15, 20],
      [24, 20],
    ] as const) {
      assert.ok(scores.get(lower)! < scores.get(higher)!, `step ${lower} (${scores.get(lower)}) < step ${higher} (${scores.get(higher)})`);
    }
    assert.ok(Math.abs(scores.get(0)! - 0.3) < 0.15 && Math.abs(scores.get(20)! - 0.9) < 0.1, JSON.stringify([...scores]));
    // Every checkpoint shares the luck of its model: what a worse step gets right, a better one does too.
    const answersAt = async (step: number) =>
      Promise.all(
        fixture.map(async (sample) => {
          const answer = await call(emulator, 'training', 'POST', '/chat/completions', { body: { model: `${trainingModel}:step${step}`, messages: sample.messages, seed: 7 } });
          return exactMatch(answer.json.choices[0].message.content, sample.reference);
        }),
      );
    const [at10, at20] = [await answersAt(10), await answersAt(20)];
    at10.forEach((right, index) => assert.ok(!right || at20[index], `sample ${index}: right at step 10, wrong at step 20`));
  });

  it('answers catalogue models through the inference API with their own fixed accuracy', async () => {
    for (const model of ['meta-llama/Llama-3.1-8B-Instruct', 'Qwen/Qwen3-235B-A22B-Instruct-2507']) {
      const score = await accuracy('inference', model, 2);
      assert.ok(Math.abs(score - FIXED_ACCURACY[model]!) < 0.15, `${model}: ${score}`);
    }
  });

  it('answers a model id without a step as its latest checkpoint', async () => {
    await emulator.createModelWithCheckpoints('evaluated', 21);
    const base = 'wandb-artifact:///emulator-entity/emulator-project/evaluated';
    const body = (model: string) => ({ body: { model, messages: fixture[0]!.messages, seed: 3, n: 4 } });
    const latest = await call(emulator, 'training', 'POST', '/chat/completions', body(base));
    const step20 = await call(emulator, 'training', 'POST', '/chat/completions', body(`${base}:step20`));
    assert.deepEqual(
      latest.json.choices.map((choice: { message: { content: string } }) => choice.message.content),
      step20.json.choices.map((choice: { message: { content: string } }) => choice.message.content),
    );
  });

  it("gives the seeded model's checkpoints a reward that rises with the step and follows the accuracy until step 20", async () => {
    const seeded = emulator.seeded!;
    const page = await call(emulator, 'training', 'GET', `/preview/models/${seeded.trainedModelId}/checkpoints?limit=25`);
    const rewards = new Map<number, number>(
      (page.json.data as { step: number; metrics: { reward?: number } }[]).filter((item) => item.metrics.reward !== undefined).map((item) => [item.step, item.metrics.reward!]),
    );
    for (let step = 1; step <= 24; step++) assert.equal(typeof rewards.get(step), 'number', `step ${step}`);
    const mean = (from: number, to: number) => {
      let sum = 0;
      for (let step = from; step <= to; step++) sum += rewards.get(step)!;
      return sum / (to - from + 1);
    };
    assert.ok(mean(1, 5) < mean(6, 10) && mean(6, 10) < mean(11, 15) && mean(11, 15) < mean(16, 20), 'rises');
    assert.ok(correlation([...Array(20).keys()].map((index) => [rewards.get(index + 1)!, checkpointAccuracy(index + 1)])) > 0.9, 'follows the accuracy up to step 20');
    assert.ok(mean(21, 24) > mean(16, 20), 'keeps rising while the accuracy falls: the reward is being gamed');
  });
});

function correlation(pairs: [number, number][]): number {
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const xs = pairs.map(([x]) => x);
  const ys = pairs.map(([, y]) => y);
  const [mx, my] = [mean(xs), mean(ys)];
  let [sxy, sxx, syy] = [0, 0, 0];
  for (const [x, y] of pairs) {
    sxy += (x - mx) * (y - my);
    sxx += (x - mx) ** 2;
    syy += (y - my) ** 2;
  }
  return sxy / Math.sqrt(sxx * syy);
}
