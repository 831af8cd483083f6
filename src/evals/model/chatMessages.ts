/**
 * Reads the chat messages of a prompt from a parsed value that may hold anything, keeping only the
 * fields a chat request carries. A problem is returned in words, naming the message at fault.
 */
import type { ChatMessage, ChatRole } from '../../platform/client/types';
import { isRecord, own } from '../../platform/kit/plainValues';

const roles: ReadonlySet<string> = new Set<ChatRole>(['system', 'user', 'assistant', 'tool']);

/** More messages than any prompt needs; a longer list is refused rather than sent. */
export const maxPromptMessages = 1_000;

export function readChatMessages(value: unknown): { messages: ChatMessage[] } | { error: string } {
  if (!Array.isArray(value)) return { error: '"messages" must be a list of chat messages' };
  if (value.length === 0) return { error: '"messages" is empty: a sample needs at least one message' };
  if (value.length > maxPromptMessages) return { error: `"messages" holds ${value.length} messages, more than the ${maxPromptMessages} a sample may have` };
  const messages: ChatMessage[] = [];
  for (let at = 0; at < value.length; at++) {
    const message = readChatMessage(value[at]);
    if ('error' in message) return { error: `message ${at + 1}: ${message.error}` };
    messages.push(message.message);
  }
  return { messages };
}

/** One message, or why it is not one (a trajectory's choice is not a message). */
export function readChatMessage(value: unknown): { message: ChatMessage } | { error: string } {
  if (!isRecord(value)) return { error: 'not an object with "role" and "content"' };
  const role = own(value, 'role');
  if (typeof role !== 'string' || !roles.has(role)) return { error: '"role" must be "system", "user", "assistant" or "tool"' };
  const content = own(value, 'content');
  const toolCalls = own(value, 'tool_calls');
  // An assistant turn that only calls tools has no text; the request carries an empty one.
  if (typeof content !== 'string' && !(content === null && Array.isArray(toolCalls))) return { error: '"content" must be text' };
  const message: ChatMessage = { role: role as ChatRole, content: typeof content === 'string' ? content : '' };
  const name = own(value, 'name');
  if (typeof name === 'string') message.name = name;
  const toolCallId = own(value, 'tool_call_id');
  if (typeof toolCallId === 'string') message.tool_call_id = toolCallId;
  if (Array.isArray(toolCalls)) message.tool_calls = toolCalls;
  return { message };
}
