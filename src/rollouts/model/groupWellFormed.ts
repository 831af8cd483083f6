/**
 * The quick checks the summary's walk makes on the way through a group: when each passes, the group
 * is well formed by core/trajectoryShape.ts and the full check (which also says what is wrong) need
 * not run. Each answers false for anything that may be off; false only means "check fully".
 * As there, an optional field written as `null` (the official Python client's unset fields) is absent.
 */
import { isRecord } from '../../platform/kit/plainValues';

export function choiceWellFormed(item: Record<string, unknown>, finishReason: unknown, message: Record<string, unknown>): boolean {
  if (typeof finishReason !== 'string') return false;
  if (item.index !== undefined && !Number.isInteger(item.index)) return false;
  if (message.role !== 'assistant') return false;
  const calls = message.tool_calls;
  if (calls != null && !Array.isArray(calls)) return false;
  const content = message.content;
  return content === undefined || content === null || typeof content === 'string' || Array.isArray(content);
}

export function messageWellFormed(item: Record<string, unknown>): boolean {
  const role = item.role;
  if (role !== 'system' && role !== 'user' && role !== 'assistant' && role !== 'tool' && role !== 'developer') return false;
  const calls = item.tool_calls;
  if (calls != null && !Array.isArray(calls)) return false;
  const content = item.content;
  if (typeof content === 'string' || Array.isArray(content)) return true;
  const nullAllowed = role === 'assistant' && Array.isArray(calls);
  return nullAllowed && (content === undefined || content === null);
}

// Written out rather than through a helper taking the check as a function: called per trajectory,
// a call through a function value is one the compiler does not inline.
export function trajectoryFieldsWellFormed(trajectory: Record<string, unknown>): boolean {
  const { tools, additional_histories: histories, metadata, logs } = trajectory;
  return (tools == null || Array.isArray(tools)) && (histories == null || historiesWellFormed(histories)) && (metadata == null || isRecord(metadata)) && (logs == null || isStrings(logs));
}

/** Additional histories: each an object with an array of well-formed messages and choices, and tools null or an array. */
function historiesWellFormed(value: unknown): boolean {
  if (!Array.isArray(value)) return false;
  for (const history of value) {
    if (!isRecord(history)) return false;
    const items = history.messages_and_choices;
    if (!Array.isArray(items) || (history.tools != null && !Array.isArray(history.tools))) return false;
    for (const item of items) {
      if (!isRecord(item)) return false;
      // Told apart as the summary's walk does: with no finish reason, a chat message (a choice
      // without one fails the message check, and the full check says what is wrong).
      const message = item.message;
      if (item.finish_reason === undefined ? !messageWellFormed(item) : !isRecord(message) || !choiceWellFormed(item, item.finish_reason, message)) return false;
    }
  }
  return true;
}

export function groupFieldsWellFormed(group: Record<string, unknown>): boolean {
  const { exceptions, metadata, metrics, logs } = group;
  return (exceptions == null || areExceptions(exceptions)) && (metadata == null || isRecord(metadata)) && (metrics == null || areMetrics(metrics)) && (logs == null || isStrings(logs));
}

export function isStrings(value: unknown): boolean {
  if (!Array.isArray(value)) return false;
  for (let index = 0; index < value.length; index++) if (typeof value[index] !== 'string') return false;
  return true;
}

function areExceptions(value: unknown): boolean {
  if (!Array.isArray(value)) return false;
  for (const item of value) {
    if (!isRecord(item) || typeof item.type !== 'string' || typeof item.message !== 'string') return false;
  }
  return true;
}

function areMetrics(value: unknown): boolean {
  if (!isRecord(value)) return false;
  for (const key in value) {
    const metric = value[key];
    if (typeof metric !== 'boolean' && !(typeof metric === 'number' && Number.isFinite(metric))) return false;
  }
  return true;
}
