/** Builders for the inspector's views: summaries made by the real summarizer, and files written as JSON writers write them. */
import { summarizeGroup } from '../../../src/rollouts/model/groupSummary';
import type { GroupSummary } from '../../../src/rollouts/model/groupSummaryShape';
import { inspectRollouts } from '../../../src/rollouts/model/rolloutReader';
import { chunksOf } from './rolloutFixtures';

export function summaryOf(value: unknown, index = 0, line = index, offset = index * 100): GroupSummary {
  const { summary } = summarizeGroup(value, { index, line, offset, bytes: 100 });
  if (!summary) throw new Error('not a trajectory group');
  return summary;
}

export function summariesOf(values: unknown[]): GroupSummary[] {
  return values.map((value, index) => summaryOf(value, index));
}

/** JSON as Python's json.dumps writes it by default: ", " and ": " between items, every character beyond ASCII as \uXXXX. */
export function pythonJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/[\u007f-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replace(/","/g, '", "')
    .replace(/":/g, '": ');
}

/** A conversation of plain messages and one choice per text, as a trajectory's `messages_and_choices`. */
export function conversation(user: string, ...answers: string[]): unknown[] {
  return [{ role: 'user', content: user }, ...answers.map((content) => ({ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }))];
}

/** A group of one trajectory per conversation, rewards 1, 0, 0, … */
export function groupOfConversations(conversations: unknown[][], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    trajectories: conversations.map((items, position) => ({ messages_and_choices: items, reward: position === 0 ? 1 : 0, metrics: {}, metadata: {} })),
    exceptions: [],
    metadata: {},
    ...extra,
  };
}

/** The file's summaries as the reader makes them (their offsets are where the search finds them). */
export async function summariesOfFile(text: string, format: 'jsonl' | 'json'): Promise<GroupSummary[]> {
  return [...(await inspectRollouts(chunksOf(text, 7), format)).groups];
}
