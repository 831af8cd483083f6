/**
 * A prompt's answers as a trajectory group in the platform's shape: each answer a trajectory whose
 * last item is the trained choice (with its logprobs when the service gave them) and whose reward
 * is the task's. A group whose rewards are all equal has no signal: GRPO's advantages are all zero
 * there, so by default it is written (to be read) but not trained on.
 */
import type { ChatMessage, Trajectory, TrajectoryGroup } from '../../platform/client/types';

export interface SampledAnswer {
  text: string;
  finishReason: string;
  logprobs?: unknown;
}

/** Metadata keys the loop writes on each group: the prompt it answers, and whether it has no signal. */
export const promptKey = 'rlstudio_prompt';
export const noSignalKey = 'rlstudio_no_signal';

export function buildGroup(promptId: string, messages: readonly ChatMessage[], answers: readonly SampledAnswer[], rewards: readonly number[], sampledFromStep: number | undefined): TrajectoryGroup {
  const trajectories: Trajectory[] = answers.map((answer, index) => ({
    messages_and_choices: [
      ...messages,
      {
        index: 0,
        finish_reason: answer.finishReason,
        message: { role: 'assistant', content: answer.text },
        ...(answer.logprobs !== undefined && answer.logprobs !== null ? { logprobs: answer.logprobs } : {}),
      },
    ],
    reward: rewards[index]!,
    metrics: { truncated: answer.finishReason === 'length' },
  }));
  return {
    trajectories,
    metadata: { [promptKey]: promptId, ...(hasNoSignal(rewards) ? { [noSignalKey]: true } : {}), ...(sampledFromStep !== undefined ? { sampled_from_step: sampledFromStep } : {}) },
  };
}

export function hasNoSignal(rewards: readonly number[]): boolean {
  if (rewards.length < 2) return true;
  let min = Infinity;
  let max = -Infinity;
  for (const reward of rewards) {
    min = Math.min(min, reward);
    max = Math.max(max, reward);
  }
  return max - min < 1e-9;
}

/** A group of a step file: the prompt it answers, and whether it has no signal. */
export interface WrittenGroup {
  promptId: string;
  noSignal: boolean;
  group: TrajectoryGroup;
}

/** A group as the loop wrote it, or undefined when it is not one (no prompt in its metadata, no trajectories). */
export function writtenGroup(group: TrajectoryGroup): WrittenGroup | undefined {
  const promptId = group?.metadata?.[promptKey];
  if (typeof promptId !== 'string' || !Array.isArray(group.trajectories)) return undefined;
  return { promptId, noSignal: group.metadata?.[noSignalKey] === true, group };
}

/** A line of a step file read back. */
export function readWrittenGroup(line: string): WrittenGroup | undefined {
  try {
    return writtenGroup(JSON.parse(line) as TrajectoryGroup);
  } catch {
    return undefined;
  }
}
