/** Builders of trajectory groups shaped as ART writes them, and a file's bytes as small chunks. */

export function choice(content: string | null, finishReason = 'stop', toolCalls?: unknown[]) {
  return {
    index: 0,
    finish_reason: finishReason,
    message: { role: 'assistant', content, ...(toolCalls ? { tool_calls: toolCalls } : {}) },
    logprobs: { content: [{ token: 'x', logprob: -0.1, bytes: [120], top_logprobs: [] }] },
  };
}

export function trajectory(reward: number, ...choices: ReturnType<typeof choice>[]) {
  return {
    messages_and_choices: [{ role: 'system', content: 'You are a helpful assistant that answers in full sentences.' }, { role: 'user', content: 'What is 2 + 2?' }, ...choices],
    reward,
    metrics: { correct: reward > 0 ? 1 : 0, turns: choices.length, passed: reward > 0 },
    metadata: { scenario: 'arith' },
    logs: [],
    tools: [],
    additional_histories: [],
  };
}

export function group(trajectories: unknown[], extra: Record<string, unknown> = {}) {
  return { trajectories, exceptions: [], metadata: { step: 3 }, metrics: {}, ...extra };
}

/** A group of `rewards.length` trajectories, each answering with a sentence of its own. */
export function groupOfRewards(rewards: number[], extra: Record<string, unknown> = {}) {
  return group(
    rewards.map((reward, position) => trajectory(reward, choice(`The answer is ${position} because two and two make four in trial ${position}.`))),
    extra,
  );
}

export async function* chunksOf(text: string, size: number): AsyncGenerator<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  for (let start = 0; start < bytes.length; start += size) yield bytes.slice(start, start + size);
}

export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}
