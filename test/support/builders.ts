/**
 * The platform's objects as tests need them: a trajectory group, a training model, a remembered
 * job. One builder each, so a test names only what matters to it and every other field has one
 * plausible value, instead of a copied literal that drifts from the others.
 */
import type { MessageOrChoice, TrainingModel, TrajectoryGroup } from '../../src/platform/client/types';
import type { RememberedJob } from '../../src/platform/host/rememberedItems';

export interface TrajectoryGroupOptions {
  /** The user's message. */
  question?: string;
  /** The assistant's choice after it; none when left out and `withAnswer` is false. */
  answer?: string;
  /** Whether the group has an assistant choice at all (default true). */
  withAnswer?: boolean;
  reward?: number;
  metadata?: Record<string, unknown>;
}

/** A trajectory group of one trajectory: a question, usually its answer, and a reward. */
export function trajectoryGroup({ question = 'What is 2 + 2?', answer = '4', withAnswer = true, reward = 1, metadata }: TrajectoryGroupOptions = {}): TrajectoryGroup {
  const messages: MessageOrChoice[] = [{ role: 'user', content: question }];
  if (withAnswer) messages.push({ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: answer } });
  return { trajectories: [{ messages_and_choices: messages, reward }], ...(metadata ? { metadata } : {}) };
}

/** `count` groups, the options of each made from its index (a job of `count` gradient steps). */
export function trajectoryGroups(count: number, options: (index: number) => TrajectoryGroupOptions = () => ({})): TrajectoryGroup[] {
  return Array.from({ length: count }, (_, index) => trajectoryGroup(options(index)));
}

/** A training model as the platform describes it; the name also makes the id unless one is given. */
export function trainingModel(fields: Partial<TrainingModel> & { name: string }): TrainingModel {
  return { id: `model-${fields.name}`, entity: 'emulator-entity', project: 'demo-project', base_model: 'OpenPipe/Qwen3-14B-Instruct', ...fields };
}

/** A job as the extension remembers it, added at the epoch unless said otherwise. */
export function rememberedJob(id: string, fields: Partial<RememberedJob> = {}): RememberedJob {
  return { id, addedAt: new Date(0).toISOString(), ...fields };
}
