import { redactSecrets } from '../../platform/client/redact';
import { oneLine } from '../../platform/kit/format';
import { codeFence, inlineCode } from '../../platform/kit/markdownText';
import { isAnswer, type AnswerEntry, type ChatEntry, type Conversation } from './conversationTypes';
import { parameterFields } from './requestBuilder';
import { formatStats } from './stats';

/**
 * A conversation as a Markdown document people can read, paste and diff: the settings in a short
 * header, each turn under a heading, compare answers one after the other with their model named,
 * reasoning folded in a details block, and the usage line under each answer. The finished text is
 * redacted last (`secrets`: the values the caller knows, such as the API key).
 */
export function conversationToMarkdown(conversation: Conversation, exportedAt = new Date(), secrets: readonly string[] = []): string {
  const lines: string[] = [`# ${oneLine(conversation.title, Number.POSITIVE_INFINITY)}`, ''];
  const settings = conversation.settings;
  const models = settings.compare && settings.compareModel ? `${settings.model} vs ${settings.compareModel}` : settings.model;
  lines.push(`- Model: ${inlineCode(models || 'none')}`);
  const fields = parameterFields(settings.parameters);
  const shown = Object.entries(fields).map(([key, value]) => `${key} ${typeof value === 'string' ? value : JSON.stringify(value)}`);
  if (shown.length > 0) lines.push(`- Parameters: ${inlineCode(shown.join(', '))}`);
  lines.push(`- Exported: ${exportedAt.toISOString()}`, '');
  if (settings.systemPrompt.trim()) lines.push('## System', '', settings.systemPrompt.trim(), '');

  for (const entry of conversation.messages) {
    if (!isAnswer(entry)) {
      lines.push('## User', '', entry.content.trim(), '');
      continue;
    }
    lines.push(`## Assistant (${inlineCode(entry.model)})`, '');
    if (entry.reasoning.trim()) {
      lines.push('<details><summary>Reasoning</summary>', '', fence(entry.reasoning.trim()), '', '</details>', '');
    }
    if (entry.content.trim()) lines.push(entry.content.trim(), '');
    const footer = answerFooter(entry);
    if (footer) lines.push(`> ${footer}`, '');
  }
  return redactSecrets(`${lines.join('\n').trimEnd()}\n`, secrets);
}

function answerFooter(answer: AnswerEntry): string {
  const parts: string[] = [];
  if (answer.status === 'stopped') parts.push('stopped');
  if (answer.status === 'error' && answer.error) parts.push(`error: ${oneLine(answer.error.message, Number.POSITIVE_INFINITY)}`);
  if (answer.stats) parts.push(formatStats(answer.stats));
  return parts.join(' · ');
}

/**
 * The machine-readable export: stable field names, no UI state (draft), ready for re-import or
 * analysis. Every string in it is redacted, then the finished text once more; should that last pass
 * ever break the JSON (a secret holding a quote), the document redacted value by value is kept.
 */
export function conversationToJson(conversation: Conversation, exportedAt = new Date(), secrets: readonly string[] = []): string {
  const document = {
    format: 'rl-studio.chat',
    version: 1,
    exportedAt: exportedAt.toISOString(),
    title: conversation.title,
    createdAt: new Date(conversation.createdAt).toISOString(),
    settings: conversation.settings,
    messages: conversation.messages.map((entry: ChatEntry) =>
      isAnswer(entry)
        ? {
            role: entry.role,
            model: entry.model,
            column: entry.column,
            content: entry.content,
            ...(entry.reasoning ? { reasoning: entry.reasoning } : {}),
            status: entry.status,
            ...(entry.finishReason ? { finishReason: entry.finishReason } : {}),
            ...(entry.error ? { error: entry.error } : {}),
            ...(entry.stats ? { stats: entry.stats } : {}),
            createdAt: new Date(entry.createdAt).toISOString(),
          }
        : { role: entry.role, content: entry.content, createdAt: new Date(entry.createdAt).toISOString() },
    ),
  };
  const byValue = `${JSON.stringify(redactStrings(document, secrets), null, 2)}\n`;
  const final = redactSecrets(byValue, secrets);
  return final === byValue || parses(final) ? final : byValue;
}

/** A copy of a JSON value with every string, keys included, redacted. */
function redactStrings(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') return redactSecrets(value, secrets);
  if (Array.isArray(value)) return value.map((item) => redactStrings(item, secrets));
  if (typeof value === 'object' && value !== null) {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) copy[redactSecrets(key, secrets)] = redactStrings(item, secrets);
    return copy;
  }
  return value;
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** A file name for the export, from the title. */
export function exportFileName(conversation: Conversation, format: 'markdown' | 'json'): string {
  const base =
    conversation.title
      .replace(/[^\p{L}\p{N}]+/gu, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'chat';
  return `${base}.${format === 'markdown' ? 'md' : 'json'}`;
}

/** A fence longer than any backtick run inside, so the text cannot close it early. */
function fence(text: string): string {
  const ticks = codeFence(text);
  return `${ticks}text\n${text}\n${ticks}`;
}
