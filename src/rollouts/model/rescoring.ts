/**
 * Re-scoring a trajectory file with another reward: each trajectory's final assistant answer is
 * scored by the new reward, against a reference read from the trajectory's metadata (else its
 * group's) when the reward compares, and set beside the reward the file holds (rewardComparison.ts
 * compares them). Works on any GroupFile, a JSONL file and a Parquet log alike. Bounded: the groups
 * read, the trajectories scored per group, and the characters of an answer scored.
 */
import type { ChatMessage } from '../../platform/client/types';
import { isRecord, own } from '../../platform/kit/plainValues';
import type { Score } from '../../platform/scoring/builtinScorers';
import { scoringLimits } from '../../platform/scoring/scorerSpec';
import type { GroupFile, GroupValueRecord } from './groupFile';
import { ComparisonBuilder, type ComparedTrajectory, type RescoringResult } from './rewardComparison';
import { choiceMessage, readContent } from './trajectoryParts';

export const rescoringLimits = {
  /** Groups read: a file with more is compared on its first ones, and says so. */
  groups: 1_000_000,
  /** Trajectories scored per group; the rest of a larger group are left out of it. */
  trajectoriesPerGroup: 4_096,
  /** Unreadable groups listed (all are counted). */
  problems: 20,
  /** Metadata keys offered as the reference, and groups they are looked for in. */
  referenceKeys: 32,
  groupsSampledForKeys: 20,
  /** Characters of a reference. */
  referenceChars: 10_000,
} as const;

/** Longest stretch of re-scoring without letting the event loop turn. */
const breathEveryMs = 50;

/** Keys a reference is usually stored under, offered first. */
export const usualReferenceKeys = ['reference', 'answer', 'expected', 'expected_answer', 'label', 'target', 'ground_truth', 'solution', 'gold'];

/** What one answer is scored with: the answer, its reference, and (only when asked for) its prompt. */
export interface AnswerToScore {
  answer: string;
  reference: string | undefined;
  messages: ChatMessage[];
}

export interface RescoringOptions {
  /** The new reward of one answer (a built-in scorer, or a judge through the glue); a score given at once is not awaited. */
  score(item: AnswerToScore): Score | Promise<Score>;
  /** The metadata key of the reference, when the reward compares with one. */
  referenceKey?: string;
  /** Whether the reward reads the prompt (a judge): the messages are only gathered then. */
  needsPrompt?: boolean;
  /** Answers scored at once within a group (a judge's requests in flight); the whole group when not given. */
  concurrency?: number;
  /** Trajectories scored in all: reading stops at the group that would go past it (a judge's bound). */
  maxTrajectories?: number;
  maxGroups?: number;
  signal?: AbortSignal;
  /** Called after each batch read: how far in the file's unit, groups and trajectories so far. */
  onProgress?(progress: { read: number; groups: number; trajectories: number }): void;
}

/** Re-scores every group of `file` with the new reward and compares it with the rewards it holds. */
export async function rescoreFile(file: GroupFile, options: RescoringOptions): Promise<RescoringResult> {
  const builder = new ComparisonBuilder();
  const problems: { line: number; message: string }[] = [];
  let unreadable = 0;
  let groups = 0;
  let trajectories = 0;
  let stoppedEarly: string | undefined;
  const maxGroups = options.maxGroups ?? rescoringLimits.groups;
  const maxTrajectories = options.maxTrajectories ?? Number.POSITIVE_INFINITY;
  const problem = (line: number, message: string): void => {
    unreadable++;
    if (problems.length < rescoringLimits.problems) problems.push({ line, message });
  };
  let read = 0;
  let lastBreath = performance.now();
  reading: for await (const batch of file.groupValues({ signal: options.signal, onProgress: (at) => (read = at) })) {
    for (const record of batch) {
      if (record.kind === 'unreadable') {
        problem(record.line, record.message);
        continue;
      }
      const items = trajectoriesOf(record, options);
      if (!items) {
        problem(record.line, 'not a trajectory group: it has no "trajectories" list');
        continue;
      }
      if (groups >= maxGroups) {
        stoppedEarly = `the comparison covers the first ${maxGroups.toLocaleString('en-US')} groups`;
        break reading;
      }
      if (trajectories + items.length > maxTrajectories) {
        stoppedEarly = `the comparison covers the first ${trajectories.toLocaleString('en-US')} trajectories, the most this reward scores`;
        break reading;
      }
      await scoreGroup(items, options);
      builder.add(groups, record.line, items);
      groups++;
      trajectories += items.length;
    }
    options.signal?.throwIfAborted();
    options.onProgress?.({ read, groups, trajectories });
    // A file read from memory (or scores given at once) never waits on anything: the host's other
    // work, a click on Cancel among it, gets its turn between batches all the same.
    if (performance.now() - lastBreath > breathEveryMs) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      lastBreath = performance.now();
    }
  }
  return { ...builder.result(), unreadable, problems, ...(stoppedEarly ? { stoppedEarly } : {}) };
}

/** A trajectory read for scoring (its answer and reference, its old reward), then given its new score in place. */
interface ReadTrajectory extends AnswerToScore, ComparedTrajectory {}

/** The prompt of a trajectory when the reward does not read it: one list for all. */
const noPrompt: ChatMessage[] = [];

function trajectoriesOf(record: Extract<GroupValueRecord, { kind: 'group' }>, options: RescoringOptions): ReadTrajectory[] | undefined {
  const group = record.value;
  if (!isRecord(group)) return undefined;
  const list = own(group, 'trajectories');
  if (!Array.isArray(list)) return undefined;
  const groupMetadata = own(group, 'metadata');
  const count = Math.min(list.length, rescoringLimits.trajectoriesPerGroup);
  const read: ReadTrajectory[] = [];
  for (let at = 0; at < count; at++) {
    const trajectory: unknown = list[at];
    const record = isRecord(trajectory) ? trajectory : {};
    const reward = own(record, 'reward');
    const messages = own(record, 'messages_and_choices');
    const items: unknown[] = Array.isArray(messages) ? messages : [];
    const last = finalAnswerAt(items);
    const content = last === undefined ? { text: '', total: 0 } : readContent(own(messageOf(items[last])!, 'content'), scoringLimits.maxScoredChars);
    read.push({
      answer: content.text,
      omittedChars: content.total - content.text.length,
      before: typeof reward === 'number' && Number.isFinite(reward) ? reward : null,
      after: null,
      reference: options.referenceKey === undefined ? undefined : (referenceIn(own(record, 'metadata'), options.referenceKey) ?? referenceIn(groupMetadata, options.referenceKey)),
      messages: options.needsPrompt ? promptOf(items, last ?? items.length) : noPrompt,
    });
  }
  return read;
}

/** The message of an item: a choice's message, or a message itself. */
function messageOf(item: unknown): Record<string, unknown> | undefined {
  return choiceMessage(item) ?? (isRecord(item) ? item : undefined);
}

/** The last item that is the model's turn (a choice, or a message of role assistant). */
function finalAnswerAt(items: readonly unknown[]): number | undefined {
  for (let at = items.length - 1; at >= 0; at--) {
    if (choiceMessage(items[at])) return at;
    const item = items[at];
    if (isRecord(item) && own(item, 'role') === 'assistant') return at;
  }
  return undefined;
}

/** The messages before the final answer, as a judge reads them (roles and texts only). */
function promptOf(items: readonly unknown[], end: number): ChatMessage[] {
  const messages: ChatMessage[] = [];
  for (let at = 0; at < end; at++) {
    const message = messageOf(items[at]);
    if (!message) continue;
    const role = own(message, 'role');
    const content = readContent(own(message, 'content'), scoringLimits.maxScoredChars).text;
    messages.push({ role: role === 'system' || role === 'user' || role === 'assistant' || role === 'tool' ? role : 'user', content } as ChatMessage);
  }
  return messages;
}

/** A metadata value usable as a reference: text, a number or a boolean. */
function referenceIn(metadata: unknown, key: string): string | undefined {
  if (!isRecord(metadata)) return undefined;
  const value = own(metadata, key);
  if (typeof value === 'string') return value.slice(0, rescoringLimits.referenceChars);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

/** Gives each trajectory its new score (or why it has none), `concurrency` answers at a time. */
async function scoreGroup(items: ReadTrajectory[], options: RescoringOptions): Promise<void> {
  const step = Math.max(1, options.concurrency ?? items.length);
  for (let start = 0; start < items.length; start += step) {
    const end = Math.min(items.length, start + step);
    const scores: (Score | Promise<Score>)[] = [];
    let pending = false;
    for (let at = start; at < end; at++) {
      const score = options.score(items[at]!);
      if (score instanceof Promise) pending = true;
      scores.push(score);
    }
    // One wait for the batch (built-in scorers' promises are settled already); Promise.all passes a plain score through.
    const settled = pending ? await Promise.all(scores as Promise<Score>[]) : (scores as Score[]);
    for (let at = start; at < end; at++) setScore(items[at]!, settled[at - start]!);
  }
}

function setScore(item: ReadTrajectory, score: Score): void {
  if (typeof score === 'number') item.after = score;
  else item.error = score.error;
}

/**
 * The metadata keys of the first groups whose values could be a reference (text, numbers,
 * booleans), of trajectories and of groups, the usual reference names first.
 */
export async function referenceKeys(file: GroupFile, signal?: AbortSignal): Promise<string[]> {
  const keys = new Set<string>();
  let groups = 0;
  const take = (metadata: unknown): void => {
    if (!isRecord(metadata)) return;
    for (const key of Object.keys(metadata)) {
      if (keys.size >= rescoringLimits.referenceKeys) return;
      const value = own(metadata, key);
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') keys.add(key);
    }
  };
  reading: for await (const batch of file.groupValues({ signal })) {
    for (const record of batch) {
      if (record.kind !== 'group' || !isRecord(record.value)) continue;
      take(own(record.value, 'metadata'));
      const list = own(record.value, 'trajectories');
      if (Array.isArray(list)) for (const trajectory of list.slice(0, 64)) if (isRecord(trajectory)) take(own(trajectory, 'metadata'));
      if (++groups >= rescoringLimits.groupsSampledForKeys) break reading;
    }
  }
  const usual = (key: string): number => {
    const at = usualReferenceKeys.indexOf(key.toLowerCase());
    return at < 0 ? usualReferenceKeys.length : at;
  };
  return [...keys].sort((a, b) => usual(a) - usual(b));
}
