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
import { detailLimits, type DiffSpan, type GroupDetail, type MessageView, type TokenLogprob, type ToolCallView, type TrajectoryView } from './inspectorModel';
import { cutText, isRecord, own, setOwn, shortText } from './plainValues';
import { repetitionRatio } from './repetition';
import { wordDiff } from './wordDiff';

/**
 * About the characters of one detail as JSON (texts, and a few characters per item for its fields):
 * some 10 MB at most to send the page. Eight siblings of five turns of 4,000 tokens with their
 * log-probabilities take about 6 MB.
 */
export const maxDetailChars = 10_000_000;
/** Characters of turns compared in one detail (both sides): a bound on the work of the differences; a group of 8 siblings of 5 turns of 2,000 characters compares 160,000. */
export const maxComparedChars = 400_000;
/** Keys of a metrics or metadata object shown. */
export const maxDetailKeys = 64;
/** Tool calls shown per message, tools per trajectory, exceptions per group. */
export const maxToolCalls = 32;
export const maxTools = 64;
export const maxExceptions = 50;

/** About the JSON characters of an item's fields, charged to the budget besides its texts. */
const itemChars = { trajectory: 400, message: 80, token: 30, toolCall: 40, line: 4 } as const;

export const diffNotes = {
  noTurn: 'The best sibling has no turn here to compare with.',
  tooLong: `Too long to compare (more than ${detailLimits.maxDiffWords.toLocaleString('en-US')} words or ${detailLimits.maxMessageChars.toLocaleString('en-US')} characters).`,
  overBudget: 'Not compared: this group has more text than is compared in one view.',
} as const;

/** Characters left for the detail's text; each text taken is cut to what is left. */
class TextBudget {
  constructor(public remaining: number) {}

  /** The text cut to `max` and to what is left, and how many characters were left out. */
  take(text: string, max: number, total = text.length): { text: string; omitted: number } {
    const kept = Math.max(0, Math.min(text.length, max, this.remaining));
    this.remaining -= kept;
    return { text: kept === text.length ? text : text.slice(0, kept), omitted: total - kept };
  }

  short(value: unknown, max: number): string {
    return this.take(shortText(value, max), max).text;
  }

  /** Room for one more item of about `chars` characters of JSON (a message, a token, a line); false once the budget is spent. */
  item(chars: number): boolean {
    if (this.remaining <= 0) return false;
    this.remaining -= chars;
    return true;
  }
}

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

/** A choice's message: a choice has a finish reason and a message (the model's own turn). */
function choiceMessage(item: unknown): Record<string, unknown> | undefined {
  if (!isRecord(item) || !Object.prototype.hasOwnProperty.call(item, 'finish_reason')) return undefined;
  const message = own(item, 'message');
  return isRecord(message) ? message : undefined;
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

function messageView(item: unknown, budget: TextBudget): MessageView {
  const choice = choiceMessage(item);
  const record = isRecord(item) ? item : {};
  const message = choice ?? record;
  const role = own(message, 'role');
  const content = readContent(own(message, 'content'), detailLimits.maxMessageChars);
  const kept = budget.take(content.text, detailLimits.maxMessageChars, content.total);
  const view: MessageView = {
    role: typeof role === 'string' ? cutText(role, 40) : choice ? 'assistant' : 'unknown',
    trained: choice !== undefined,
    content: kept.text,
    omittedChars: kept.omitted,
    toolCalls: toolCallViews(own(message, 'tool_calls'), budget),
  };
  if (choice) {
    const reason = own(record, 'finish_reason');
    view.finishReason = typeof reason === 'string' ? cutText(reason, 40) : 'unknown';
    const logprobs = own(record, 'logprobs');
    const tokens = isRecord(logprobs) ? own(logprobs, 'content') : undefined;
    if (Array.isArray(tokens)) view.logprobs = tokenLogprobs(tokens, budget);
  }
  const callId = own(message, 'tool_call_id');
  if (typeof callId === 'string') view.toolCallId = cutText(callId, detailLimits.maxShortText);
  return view;
}

function tokenLogprobs(entries: unknown[], budget: TextBudget): TokenLogprob[] {
  const tokens: TokenLogprob[] = [];
  for (let at = 0; at < entries.length && tokens.length < detailLimits.maxTokens && budget.item(itemChars.token); at++) {
    const entry: unknown = entries[at];
    if (!isRecord(entry)) continue;
    const token = own(entry, 'token');
    const logprob = own(entry, 'logprob');
    if (typeof token !== 'string' || typeof logprob !== 'number' || !Number.isFinite(logprob)) continue;
    tokens.push({ token: budget.take(token, detailLimits.maxShortText).text, logprob });
  }
  return tokens;
}

function toolCallViews(calls: unknown, budget: TextBudget): ToolCallView[] {
  const views: ToolCallView[] = [];
  if (!Array.isArray(calls)) return views;
  for (let at = 0; at < calls.length && views.length < maxToolCalls && budget.item(itemChars.toolCall); at++) {
    const call: unknown = calls[at];
    if (!isRecord(call)) continue;
    const fn = own(call, 'function');
    const record = isRecord(fn) ? fn : {};
    const id = own(call, 'id');
    const name = own(record, 'name');
    const args = own(record, 'arguments');
    views.push({
      id: typeof id === 'string' ? budget.take(id, detailLimits.maxShortText).text : '',
      name: typeof name === 'string' ? budget.take(name, detailLimits.maxShortText).text : '',
      arguments: args === undefined ? '' : budget.take(shortText(args, detailLimits.maxMessageChars), detailLimits.maxMessageChars).text,
    });
  }
  return views;
}

/**
 * A message's content as text: a string as it is; a list of parts as their texts, one a line, with
 * a note for each other part ("[image]"). `text` is at most `max` characters; `total` counts all.
 */
function readContent(content: unknown, max: number): { text: string; total: number } {
  if (typeof content === 'string') return { text: content.length <= max ? content : content.slice(0, max), total: content.length };
  if (content === null || content === undefined) return { text: '', total: 0 };
  if (!Array.isArray(content)) {
    const text = shortText(content, max);
    return { text, total: text.length };
  }
  let text = '';
  let total = 0;
  for (let at = 0; at < content.length; at++) {
    const piece = partText(content[at]);
    const joined = at === 0 ? piece : `\n${piece}`;
    total += joined.length;
    if (text.length < max) text += joined.length <= max - text.length ? joined : joined.slice(0, max - text.length);
  }
  return { text, total };
}

function partText(part: unknown): string {
  if (typeof part === 'string') return part;
  if (!isRecord(part)) return '[part]';
  const type = own(part, 'type');
  const text = own(part, 'text');
  if (typeof text === 'string' && (type === undefined || type === 'text' || type === 'input_text' || type === 'output_text')) return text;
  if (type === 'image_url' || type === 'image' || type === 'input_image') return '[image]';
  if (type === 'input_audio' || type === 'audio') return '[audio]';
  if (type === 'file' || type === 'input_file') return '[file]';
  return typeof type === 'string' ? `[${cutText(type, 40)}]` : '[part]';
}

/** An object's first `maxDetailKeys` keys, each value as a short text. */
function shortRecord(value: unknown, budget: TextBudget): Record<string, string> {
  const result: Record<string, string> = {};
  if (!isRecord(value)) return result;
  let keys = 0;
  for (const key in value) {
    if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
    const name = cutText(key, detailLimits.maxShortText);
    if (++keys > maxDetailKeys || !budget.item(itemChars.line + name.length)) break;
    setOwn(result, name, budget.short(value[key], detailLimits.maxShortText));
  }
  return result;
}

function toolNames(tools: unknown, budget: TextBudget): string[] {
  const names: string[] = [];
  if (!Array.isArray(tools)) return names;
  for (let at = 0; at < tools.length && names.length < maxTools && budget.item(itemChars.line); at++) {
    const tool: unknown = tools[at];
    if (!isRecord(tool)) continue;
    const fn = own(tool, 'function');
    const name = isRecord(fn) ? own(fn, 'name') : own(tool, 'name');
    if (typeof name === 'string') names.push(budget.take(cutText(name, detailLimits.maxShortText), detailLimits.maxShortText).text);
  }
  return names;
}

/** The first `maxLogLines` lines of a list of log lines (or of one text), each cut to `maxLogChars`. */
function logLines(logs: unknown, budget: TextBudget): string[] {
  const lines: string[] = [];
  if (typeof logs === 'string') {
    for (let start = 0; start <= logs.length && lines.length < detailLimits.maxLogLines && budget.item(itemChars.line);) {
      const end = logs.indexOf('\n', start);
      const stop = end < 0 ? logs.length : end;
      lines.push(budget.take(cutText(logs.slice(start, Math.min(stop, start + detailLimits.maxLogChars + 1)), detailLimits.maxLogChars), detailLimits.maxLogChars).text);
      if (end < 0) break;
      start = end + 1;
    }
    return lines;
  }
  if (!Array.isArray(logs)) return lines;
  for (let at = 0; at < logs.length && lines.length < detailLimits.maxLogLines && budget.item(itemChars.line); at++) lines.push(budget.short(logs[at], detailLimits.maxLogChars));
  return lines;
}

function exceptionTexts(exceptions: unknown, budget: TextBudget): string[] {
  const texts: string[] = [];
  if (!Array.isArray(exceptions)) return texts;
  for (let at = 0; at < exceptions.length && texts.length < maxExceptions && budget.item(itemChars.line); at++) {
    const exception: unknown = exceptions[at];
    const type = isRecord(exception) ? own(exception, 'type') : undefined;
    const message = isRecord(exception) ? own(exception, 'message') : undefined;
    const text =
      typeof type === 'string' || typeof message === 'string'
        ? `${typeof type === 'string' ? cutText(type, detailLimits.maxShortText) : 'Exception'}: ${typeof message === 'string' ? cutText(message, detailLimits.maxLogChars) : ''}`
        : shortText(exception, detailLimits.maxLogChars);
    texts.push(budget.short(text, detailLimits.maxLogChars));
  }
  return texts;
}
