/**
 * How often a model answers an eval question right, so that a test (or the demo) knows in advance
 * which checkpoint of a training model wins an evaluation.
 *
 * A checkpoint's chance of a right answer follows its step on a fixed curve (ACCURACY_CURVE): it
 * rises from 0.30 at step 0 to a peak of 0.92 at step 20, then the run regresses (0.72 at step 24,
 * the last step of the demo model's finished job) and recovers only to 0.85 from step 48 on. So on
 * the demo model the best checkpoint is step 20, not the latest. Catalogue and base models answer
 * with their own fixed accuracy (FIXED_ACCURACY).
 *
 * The training reward of a checkpoint (its `reward` metric, see jobClock.ts) rises with the step
 * and tracks the accuracy up to step 20, then keeps rising while the accuracy falls: the reward is
 * being gamed, which is what an evaluation of the checkpoints is there to show.
 *
 * Whether one answer is right is decided by a number u in [0, 1) hashed from the training model
 * (not the step), the prompt, the seed and the draw: the answer is right when u < accuracy. Every
 * checkpoint of one model shares those numbers, so a checkpoint with a higher accuracy gets right
 * every answer a lower one gets right: over any eval set the ranking of checkpoints follows the
 * curve, never the luck of the draw.
 */
import { unitHash } from './prng';

/** (step, accuracy) knots; accuracy between knots is linear, after the last one it stays flat. */
export const ACCURACY_CURVE: readonly (readonly [step: number, accuracy: number])[] = [
  [0, 0.3],
  [5, 0.5],
  [10, 0.64],
  [15, 0.76],
  [20, 0.92],
  [22, 0.82],
  [24, 0.72],
  [32, 0.8],
  [48, 0.85],
];

/** Accuracy of models that are not checkpoints; the base model of the demo answers as its step 0 does. */
export const FIXED_ACCURACY: Readonly<Record<string, number>> = {
  'OpenPipe/Qwen3-14B-Instruct': 0.3,
  'Qwen/Qwen2.5-7B-Instruct': 0.4,
  'Qwen/Qwen3-30B-A3B-Instruct-2507': 0.6,
  'meta-llama/Llama-3.1-8B-Instruct': 0.45,
  'Qwen/Qwen3-235B-A22B-Instruct-2507': 0.8,
  'deepseek-ai/DeepSeek-R1-reasoning-demo': 0.7,
};
/** Any other model id. */
const DEFAULT_ACCURACY = 0.5;

export function checkpointAccuracy(step: number): number {
  const first = ACCURACY_CURVE[0]!;
  if (step <= first[0]) return first[1];
  for (let index = 1; index < ACCURACY_CURVE.length; index++) {
    const [toStep, toAccuracy] = ACCURACY_CURVE[index]!;
    if (step <= toStep) {
      const [fromStep, fromAccuracy] = ACCURACY_CURVE[index - 1]!;
      return fromAccuracy + ((toAccuracy - fromAccuracy) * (step - fromStep)) / (toStep - fromStep);
    }
  }
  return ACCURACY_CURVE.at(-1)![1];
}

/** The training reward around which a checkpoint's `reward` metric is drawn: 0.10 at step 0, 0.85 at 20, 0.95 at last. */
export function trainingReward(step: number): number {
  return 0.1 + 0.85 * (1 - Math.exp(-Math.max(0, step) / 9));
}

/** Who answers: `key` names the model whose checkpoints share their luck (see above). */
export interface AnswerSkill {
  key: string;
  accuracy: number;
}

/** A checkpoint of `trainingModel` (entity/project/name) at `step`, or any other model by its id. */
export function skillOf(model: string, checkpoint: { trainingModel: string; step: number } | undefined): AnswerSkill {
  if (checkpoint) return { key: checkpoint.trainingModel, accuracy: checkpointAccuracy(checkpoint.step) };
  return { key: model, accuracy: FIXED_ACCURACY[model] ?? DEFAULT_ACCURACY };
}

/**
 * The shared number u of one answer. At temperature 0 the draw does not count: a greedy model
 * gives every draw the same answer.
 */
export function answerLuck(skill: AnswerSkill, prompt: string, seed: number | undefined, draw: number, temperature: number | undefined): number {
  const drawKey = temperature === 0 ? 0 : draw;
  return unitHash(`${skill.key}\u0000${prompt}\u0000${seed ?? ''}\u0000${drawKey}`);
}
