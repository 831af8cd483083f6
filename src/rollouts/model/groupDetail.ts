/**
 * One group, whole, for the group view: built from the group parsed again from its text when the
 * user opens it. The siblings come best first, each trained turn with its difference from the best
 * sibling's turn at the same place, and everything cut to `detailLimits`.
 *
 * The file is not trusted to have the documented shape: any value may be of any type, lists may be
 * a million long and strings 50 MB, keys may be `__proto__`. Every reading here checks the type it
 * needs and does bounded work, and the detail as a whole holds at most `maxDetailChars` characters
 * of text (the per-field caps alone would allow 64 siblings × 200 messages × 20,000 characters).
 */
import { advantageOf, wordCharacter } from './groupSummary';
import { defaultThresholds, type GroupSummary } from './groupSummaryShape';
import type { DiffSpan } from '../../platform/kit/wordDiff';
import { detailLimits, type GroupDetail, type MessageView, type TrajectoryView } from './inspectorModel';
import { cutText, isRecord, own } from '../../platform/kit/plainValues';
import { choiceMessage, exceptionTexts, itemChars, logLines, messageView, readContent, shortRecord, TextBudget, toolNames } from './trajectoryParts';
import { repetitionRatio } from '../../platform/kit/repetition';
import { wordDiff } from '../../platform/kit/wordDiff';

/**
 * About the characters of one detail as JSON (texts, and a few characters per item for its fields):
 * some 10 MB at most to send the page. Eight siblings of five turns of 4,000 tokens with their
 * log-probabilities take about 6 MB.
 */
export const maxDetailChars = 10_000_000;
/** Characters of turns compared in one detail (both sides): a bound on the work of the differences; a group of 8 siblings of 5 turns of 2,000 characters compares 160,000. */
export const maxComparedChars = 400_000;
export const diffNotes = {
  noTurn: 'The best sibling has no turn here to compare with.',
  tooLong: `Too long to compare (more than ${detailLimits.maxDiffWords.toLocaleString('en-US')} words or ${detailLimits.maxMessageChars.toLocaleString('en-US')} characters).`,
  overBudget: 'Not compared: this group has more text than is compared in one view.',
} as const;

export function buildGroupDetail(value: unknown, summary: GroupSummary, shapeProblems: readonly string[]): GroupDetail {
  const budget = new TextBudget(maxDetailChars);
  const group = isRecord(value) ? value : {};
  const list = own(group, 'trajectories');
  const trajectories: unknown[] = Array.isArray(list) ? list : [];
  const { mean, std } = summary.reward;

  const rewards = new Float64Array(trajectories.length);
  for (let position = 0; position < trajectories.length; position++) {
    const trajectory = trajectories[position];
    const reward = isRecord(trajectory) ? own(trajectory, 'reward') : undefined;
    // A reward that is not a number sorts last (and shows as 0; the group's problems say what is wrong).
    rewards[position] = typeof reward === 'number' && Number.isFinite(reward) ? reward : Number.NEGATIVE_INFINITY;
  }
  const order = bestFirst(rewards, detailLimits.maxTrajectories);

  const best = order.length > 0 ? trajectories[order[0]!] : undefined;
  const bestTurns = trainedTexts(isRecord(best) ? own(best, 'messages_and_choices') : undefined);
  // The group's own fields first: they are small (each list and text capped).
  const exceptions = exceptionTexts(own(group, 'exceptions'), budget);
  const metadata = shortRecord(own(group, 'metadata'), budget);
  const problems = shapeProblems
    .slice(0, detailLimits.maxLogLines)
    .filter(() => budget.item(itemChars.line))
    .map((problem) => budget.take(cutText(String(problem), detailLimits.maxLogChars), detailLimits.maxLogChars).text);

  const compared = { chars: 0 };
  const siblingsCallTools = trajectories.some((trajectory) => isRecord(trajectory) && callsTools(own(trajectory, 'messages_and_choices')));
  const views: TrajectoryView[] = [];
  for (let rank = 0; rank < order.length; rank++) {
    const position = order[rank]!;
    // Each sibling gets an equal share of what is left (what one leaves unused goes to the next), so a
    // huge sibling cannot crowd out the others.
    const share = new TextBudget(Math.floor(budget.remaining / (order.length - rank)));
    const reward = Number.isFinite(rewards[position]!) ? rewards[position]! : 0;
    const advantage = advantageOf(reward, mean);
    views.push(trajectoryView(trajectories[position], position, reward, advantage, std > 0 ? advantage / std : 0, rank === 0 ? undefined : bestTurns, share, compared, siblingsCallTools));
    budget.remaining -= Math.floor(budget.remaining / (order.length - rank)) - share.remaining;
  }

  return {
    index: summary.index,
    line: summary.line,
    reward: { ...summary.reward },
    flags: [...summary.flags],
    exceptions,
    metadata,
    trajectories: views,
    omittedTrajectories: trajectories.length - views.length,
    problems,
  };
}

/** Positions of the `max` highest rewards, highest first, ties in position order. */
function bestFirst(rewards: Float64Array, max: number): number[] {
  const kept: number[] = [];
  const better = (a: number, b: number): boolean => rewards[a]! > rewards[b]! || (rewards[a] === rewards[b] && a < b);
  for (let position = 0; position < rewards.length; position++) {
    if (kept.length === max && !better(position, kept[max - 1]!)) continue;
    // Binary search for the place among those kept; a file of a million siblings costs log(64) per sibling.
    let low = 0;
    let high = kept.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (better(kept[middle]!, position)) low = middle + 1;
      else high = middle;
    }
    kept.splice(low, 0, position);
    if (kept.length > max) kept.pop();
  }
  return kept;
}

/** The first `maxMessages` trained turns' texts, or undefined for a turn too long to compare. */
function trainedTexts(items: unknown): (string | undefined)[] {
  const texts: (string | undefined)[] = [];
  if (!Array.isArray(items)) return texts;
  for (const item of items as unknown[]) {
    if (texts.length >= detailLimits.maxMessages) break;
    const message = choiceMessage(item);
    if (!message) continue;
    const content = readContent(own(message, 'content'), detailLimits.maxMessageChars);
    texts.push(content.total <= detailLimits.maxMessageChars ? content.text : undefined);
  }
  return texts;
}

/** Whether a trained choice of these items calls a tool. */
function callsTools(items: unknown): boolean {
  if (!Array.isArray(items)) return false;
  return items.some((item) => {
    const message = choiceMessage(item);
    const calls = message ? own(message, 'tool_calls') : undefined;
    return Array.isArray(calls) && calls.length > 0;
  });
}

function trajectoryView(
  value: unknown,
  position: number,
  reward: number,
  advantage: number,
  normalizedAdvantage: number,
  bestTurns: (string | undefined)[] | undefined,
  budget: TextBudget,
  compared: { chars: number },
  siblingsCallTools: boolean,
): TrajectoryView {
  const trajectory = isRecord(value) ? value : {};
  const list = own(trajectory, 'messages_and_choices');
  const items: unknown[] = Array.isArray(list) ? list : [];

  // The trajectory's own flags, from every turn (not only those shown).
  let truncated = false;
  let repetition = 0;
  let toolCalls = false;
  let trimmedChars = 0;
  let hasWord = false;
  for (const item of items) {
    const message = choiceMessage(item);
    if (!message) continue;
    if (own(item as Record<string, unknown>, 'finish_reason') === 'length') truncated = true;
    const calls = own(message, 'tool_calls');
    if (Array.isArray(calls) && calls.length > 0) toolCalls = true;
    const content = own(message, 'content');
    const text = typeof content === 'string' ? content : readContent(content, detailLimits.maxMessageChars).text;
    if (text.length > 0) repetition = Math.max(repetition, repetitionRatio(text));
    if (trimmedChars < defaultThresholds.trivialChars) {
      if (!hasWord) hasWord = wordCharacter.test(text);
      trimmedChars += text.trim().length;
    }
  }

  const messages: MessageView[] = [];
  let trainedOrdinal = 0;
  for (let at = 0; at < items.length && at < detailLimits.maxMessages && budget.item(itemChars.message); at++) {
    const view = messageView(items[at], budget);
    if (view.trained && bestTurns) {
      const note = diffOf(items[at], bestTurns[trainedOrdinal], trainedOrdinal < bestTurns.length, budget, compared);
      if (typeof note === 'string') view.diffNote = note;
      else view.diff = note;
    }
    if (view.trained) trainedOrdinal++;
    messages.push(view);
  }

  const histories: MessageView[][] = [];
  const additional = own(trajectory, 'additional_histories');
  if (Array.isArray(additional)) {
    for (let at = 0; at < additional.length && histories.length < detailLimits.maxAdditionalHistories && budget.item(itemChars.line); at++) {
      const history: unknown = additional[at];
      const historyItems = isRecord(history) ? own(history, 'messages_and_choices') : undefined;
      const views: MessageView[] = [];
      if (Array.isArray(historyItems))
        for (let item = 0; item < historyItems.length && item < detailLimits.maxMessages && budget.item(itemChars.message); item++) views.push(messageView(historyItems[item], budget));
      histories.push(views);
    }
  }

  return {
    position,
    reward,
    advantage,
    normalizedAdvantage,
    metrics: shortRecord(own(trajectory, 'metrics'), budget),
    metadata: shortRecord(own(trajectory, 'metadata'), budget),
    messages,
    omittedMessages: items.length - messages.length,
    tools: toolNames(own(trajectory, 'tools'), budget),
    additionalHistories: histories,
    logs: logLines(own(trajectory, 'logs'), budget),
    truncated,
    repetition,
    // The summary's rule (groupSummary.ts): short and wordless, or short among siblings that call tools.
    doesNothing: !toolCalls && trimmedChars < defaultThresholds.trivialChars && (!hasWord || siblingsCallTools),
  };
}

/** The difference of a trained turn from the best sibling's turn at the same place, or why there is none. */
function diffOf(item: unknown, bestText: string | undefined, bestHasTurn: boolean, budget: TextBudget, compared: { chars: number }): DiffSpan[] | string {
  if (!bestHasTurn) return diffNotes.noTurn;
  const message = choiceMessage(item)!;
  const content = readContent(own(message, 'content'), detailLimits.maxMessageChars);
  if (bestText === undefined || content.total > detailLimits.maxMessageChars) return diffNotes.tooLong;
  const chars = bestText.length + content.text.length;
  if (compared.chars + chars > maxComparedChars || chars > budget.remaining) return diffNotes.overBudget;
  compared.chars += chars;
  const diff = wordDiff(bestText, content.text);
  if (!diff) return diffNotes.tooLong;
  budget.remaining -= chars;
  return diff;
}
