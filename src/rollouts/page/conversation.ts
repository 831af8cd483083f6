/**
 * A trajectory's conversation drawn as a chat: system, user, assistant and tool messages, tool calls
 * with their arguments, tool results, and the trained turns marked. A trained turn shows its plain
 * text, its difference from the best sibling's turn, or its tokens tinted by log-probability,
 * as the group view's mode says. Every text from the file goes in as text, never as markup.
 */
import type { MessageView, TokenLogprob } from '../model/inspectorModel';
import type { DiffSpan } from '../../platform/kit/wordDiff';
import { h } from '../../platform/pages/page/dom';
import { diffText, foldedText } from '../../platform/pages/page/text';
import { formatCount } from '../../platform/kit/format';
import { formatNumber } from './labels';

export type TextMode = 'plain' | 'diff' | 'heat';

/** Token spans drawn per group at most: a group of 64 long siblings stays a page a browser can hold. */
export const maxHeatTokens = 30_000;
/** Characters shown of a long message until "Show all" is pressed. */
const foldChars = 4_000;
/** A system prompt longer than this starts folded: siblings usually share it. */
const foldSystemChars = 400;

export interface RenderBudget {
  heatTokens: number;
}

const knownRoles = new Set(['system', 'user', 'assistant', 'tool']);

export function renderConversation(messages: MessageView[], mode: TextMode, budget: RenderBudget): HTMLElement {
  const list = h('ol', { class: 'conversation' });
  for (const message of messages) list.append(renderMessage(message, mode, budget));
  return list;
}

function renderMessage(message: MessageView, mode: TextMode, budget: RenderBudget): HTMLElement {
  const role = knownRoles.has(message.role) ? message.role : 'other';
  const item = h('li', { class: `message role-${role}${message.trained ? ' trained' : ''}` });
  const head = h('div', { class: 'message-head' }, h('span', { class: 'role' }, message.role || '(no role)'));
  if (message.trained) head.append(h('span', { class: 'badge trained-badge', title: 'A choice: the tokens of this turn are trained on' }, 'trained'));
  if (message.finishReason)
    head.append(h('span', { class: `finish finish-${message.finishReason === 'length' ? 'length' : 'other'}`, title: 'Why the model stopped this turn' }, `finish: ${message.finishReason}`));
  if (message.toolCallId) head.append(h('span', { class: 'muted small', title: 'The tool call this result answers' }, `result of ${message.toolCallId}`));
  item.append(head);

  const body = messageBody(message, mode, budget);
  if (role === 'system' && message.content.length > foldSystemChars && mode !== 'heat') {
    const fold = h('details', { class: 'system-fold' }, h('summary', {}, `System prompt · ${formatCount(message.content.length)} characters`), body);
    item.append(fold);
  } else if (body) {
    item.append(body);
  }
  if (message.omittedChars > 0) item.append(h('div', { class: 'note' }, `… ${formatCount(message.omittedChars)} more characters not shown`));
  for (const call of message.toolCalls) {
    item.append(
      h(
        'div',
        { class: 'tool-call' },
        h('div', { class: 'tool-name' }, h('span', { class: 'muted' }, 'calls '), h('strong', {}, call.name), call.id ? h('span', { class: 'muted small' }, ` · ${call.id}`) : undefined),
        h('pre', { class: 'code' }, call.arguments),
      ),
    );
  }
  return item;
}

function messageBody(message: MessageView, mode: TextMode, budget: RenderBudget): HTMLElement | undefined {
  if (mode === 'heat' && message.logprobs && message.logprobs.length > 0) {
    if (budget.heatTokens >= message.logprobs.length) {
      budget.heatTokens -= message.logprobs.length;
      return heat(message.logprobs);
    }
    const body = folded(message.content);
    body.append(h('div', { class: 'note' }, 'Log-probabilities not drawn here: this group already shows as many tokens as the page can hold.'));
    return body;
  }
  if (mode === 'diff' && message.trained && message.diff) return diff(message.diff);
  const body = message.content ? folded(message.content) : message.toolCalls.length ? undefined : h('div', { class: 'message-body empty' }, '(empty)');
  if (mode === 'diff' && message.trained && message.diffNote && body) body.append(h('div', { class: 'note' }, message.diffNote));
  return body;
}

/** Long text shows its start and a button for the rest. */
function folded(content: string): HTMLElement {
  return foldedText(content, { className: 'message-body', foldChars, title: 'Show the whole text of this message' });
}

function diff(spans: DiffSpan[]): HTMLElement {
  return diffText(spans, { className: 'message-body', title: 'Compared with the best sibling: added here, struck through = only in the best' });
}

/** Each token a span tinted by how unlikely the model found it: the more surprising, the stronger. */
function heat(tokens: TokenLogprob[]): HTMLElement {
  const body = h('div', { class: 'message-body heat' });
  for (const { token, logprob } of tokens) {
    const probability = Math.exp(logprob);
    const span = h('span', { class: `tok heat-${heatLevel(probability)}`, title: `${JSON.stringify(token)} · logprob ${formatNumber(logprob)} · p ${formatNumber(probability)}` }, token);
    body.append(span);
  }
  return body;
}

function heatLevel(probability: number): number {
  if (!(probability < 0.9)) return 0;
  if (probability >= 0.5) return 1;
  if (probability >= 0.2) return 2;
  if (probability >= 0.05) return 3;
  return 4;
}
