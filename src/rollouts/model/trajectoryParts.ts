/**
 * The parts of a trajectory as the group view shows them, each read from a value of any type and
 * cut to its limits and to what is left of the detail's text budget: messages with their content
 * and log-probabilities, tool calls, tools, metadata and metrics, logs and exceptions.
 */
import { detailLimits, type MessageView, type TokenLogprob, type ToolCallView } from './inspectorModel';
import { cutText, isRecord, own, setOwn, shortText } from '../../platform/kit/plainValues';

/** Keys of a metrics or metadata object shown. */
export const maxDetailKeys = 64;

/** Tool calls shown per message, tools per trajectory, exceptions per group. */
export const maxToolCalls = 32;

export const maxTools = 64;

export const maxExceptions = 50;

/** About the JSON characters of an item's fields, charged to the budget besides its texts. */
export const itemChars = { trajectory: 400, message: 80, token: 30, toolCall: 40, line: 4 } as const;

/** Characters left for the detail's text; each text taken is cut to what is left. */
export class TextBudget {
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

export function messageView(item: unknown, budget: TextBudget): MessageView {
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

export function tokenLogprobs(entries: unknown[], budget: TextBudget): TokenLogprob[] {
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

export function toolCallViews(calls: unknown, budget: TextBudget): ToolCallView[] {
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
export function readContent(content: unknown, max: number): { text: string; total: number } {
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

export function partText(part: unknown): string {
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
export function shortRecord(value: unknown, budget: TextBudget): Record<string, string> {
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

export function toolNames(tools: unknown, budget: TextBudget): string[] {
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
export function logLines(logs: unknown, budget: TextBudget): string[] {
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

export function exceptionTexts(exceptions: unknown, budget: TextBudget): string[] {
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

/** A choice's message: a choice has a finish reason and a message (the model's own turn). */
export function choiceMessage(item: unknown): Record<string, unknown> | undefined {
  if (!isRecord(item) || !Object.prototype.hasOwnProperty.call(item, 'finish_reason')) return undefined;
  const message = own(item, 'message');
  return isRecord(message) ? message : undefined;
}
