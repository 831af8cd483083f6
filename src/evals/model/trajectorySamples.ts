/**
 * An eval set made from a file of trajectory groups (what a rollout script writes): each group
 * gives one sample, whose prompt is the messages before the first choice of the group's best
 * trajectory (highest reward, the first on a tie) and whose reference is that choice's text. So a
 * set of prompts the model was trained on can be replayed against later checkpoints.
 */
import type { ChatMessage } from '../../platform/client/types';
import { JsonArraySplitter } from '../../platform/kit/jsonArrayElements';
import { isRecord, own } from '../../platform/kit/plainValues';
import type { TrajectoryTextFormat } from '../../platform/kit/trajectoryFile';
import type { ParquetSource } from '../../platform/parquet/parquetFile';
import { openTrajectoryLog, readLoggedGroups, TrajectoryLogError } from '../../platform/parquet/trajectoryLog';
import { readChatMessage } from './chatMessages';
import { EvalSetBuilder, linesOf, parseLineJson, sampleHashId, tooLongMessage, type ParsedEvalSet } from './evalSet';
import type { EvalSample } from './evalModel';

/**
 * Groups are larger than samples (every trajectory of a group travels with it), so a group may be
 * longer than a sample's line before it is refused (characters of a .jsonl line, bytes of a .json element).
 */
export const maxGroupChars = 64 * 1024 * 1024;

export function samplesFromTrajectoryGroups(text: string, format: TrajectoryTextFormat): ParsedEvalSet {
  const builder = new EvalSetBuilder();
  const take = (line: number, groupText: string | undefined, chars: number): void => {
    if (groupText === undefined) return builder.problem(line, tooLongMessage(chars, maxGroupChars));
    if (groupText.trim() === '') return;
    const parsed = parseLineJson(groupText);
    if ('error' in parsed) return builder.problem(line, parsed.error.replace('the line', 'the group'));
    const sample = sampleOfGroup(parsed.value, line);
    if ('error' in sample) builder.problem(line, sample.error);
    else builder.add(sample.sample);
  };
  if (format === 'jsonl') {
    for (const { line, text: groupText, chars } of linesOf(text, maxGroupChars)) {
      if (!builder.open) break;
      take(line, groupText, chars);
    }
    return builder.finish();
  }
  const splitter = new JsonArraySplitter(maxGroupChars);
  const pieces = splitter.push(new TextEncoder().encode(text));
  const last = splitter.end();
  if (last) pieces.push(last);
  for (const piece of pieces) {
    if (!builder.open) break;
    if (piece.kind === 'line') take(piece.line, piece.text, piece.text.length);
    else if (piece.kind === 'tooLong') builder.problem(piece.line, tooLongMessage(piece.bytes, maxGroupChars));
    else builder.problem(piece.line, piece.message);
  }
  return builder.finish();
}

/**
 * The same from the official client's Parquet trajectory log: each group (its rows) gives a
 * sample, placed at the group's first row (a problem's "line" is that row).
 */
export async function samplesFromParquetLog(source: ParquetSource): Promise<ParsedEvalSet> {
  const builder = new EvalSetBuilder();
  try {
    const log = await openTrajectoryLog(source);
    for await (const logged of readLoggedGroups(log)) {
      if (!builder.open) break;
      const sample = sampleOfGroup(logged.group, logged.rowStart);
      if ('error' in sample) builder.problem(logged.rowStart, `row ${logged.rowStart + 1}: ${sample.error}`);
      else builder.add(sample.sample);
    }
  } catch (error) {
    if (!(error instanceof TrajectoryLogError)) throw error;
    builder.problem(0, error.message);
  }
  return builder.finish();
}

/** The sample of one group, or why the group gives none. */
export function sampleOfGroup(group: unknown, line: number): { sample: EvalSample } | { error: string } {
  if (!isRecord(group)) return { error: 'a trajectory group must be an object with "trajectories"' };
  const trajectories = own(group, 'trajectories');
  if (!Array.isArray(trajectories) || trajectories.length === 0) return { error: 'the group has no trajectories' };
  let best: Record<string, unknown> | undefined;
  let bestReward = -Infinity;
  for (const trajectory of trajectories) {
    if (!isRecord(trajectory)) continue;
    const reward = own(trajectory, 'reward');
    if (typeof reward === 'number' && Number.isFinite(reward) && reward > bestReward) {
      best = trajectory;
      bestReward = reward;
    }
  }
  if (!best) return { error: 'no trajectory of the group has a numeric reward' };
  const items = own(best, 'messages_and_choices');
  if (!Array.isArray(items)) return { error: 'the best trajectory has no "messages_and_choices"' };
  const prompt: ChatMessage[] = [];
  for (let at = 0; at < items.length; at++) {
    const item: unknown = items[at];
    if (isChoice(item)) {
      if (prompt.length === 0) return { error: 'the best trajectory starts with a choice: there is no prompt before it' };
      const reference = choiceText(item);
      const sample: EvalSample = { id: sampleHashId(prompt, reference), messages: prompt, line };
      if (reference !== undefined) sample.reference = reference;
      const metadata = own(group, 'metadata');
      if (isRecord(metadata)) sample.metadata = metadata;
      return { sample };
    }
    const message = readChatMessage(item);
    if ('error' in message) return { error: `message ${at + 1} of the best trajectory: ${message.error}` };
    prompt.push(message.message);
  }
  return { error: 'the best trajectory has no choice: nothing tells where its prompt ends' };
}

function isChoice(item: unknown): item is Record<string, unknown> {
  return isRecord(item) && (own(item, 'finish_reason') !== undefined || (isRecord(own(item, 'message')) && own(item, 'role') === undefined));
}

function choiceText(choice: Record<string, unknown>): string | undefined {
  const message = own(choice, 'message');
  const content = isRecord(message) ? own(message, 'content') : undefined;
  return typeof content === 'string' ? content : undefined;
}
