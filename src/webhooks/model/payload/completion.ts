import { stringAt, type PayloadAnalysis } from './analysis';
import { automationEventType, type AutomationFields } from './automation';
import type { PayloadContext } from './context';
import { describeResolution, describeVariable } from './describe';
import { isRunEvent } from './events';
import { isUsableKey, metadataKeysIn } from './metadataKeys';
import { contentEndAt } from './references';
import { accessTokenName, metadataPrefix, metadataVariable, plainVariables } from './variables';

export interface PayloadCompletionItem {
  label: string;
  /** Inserted verbatim (never read as a snippet). */
  insertText: string;
  kind: 'variable' | 'metadata-prefix' | 'metadata-key' | 'secret';
  /** A few words shown beside the name on every row of the list, so no entry is a bare name. */
  summary: string;
  /** One line of plain text: the meaning, shown for the selected entry. */
  detail: string;
  /** Markdown: meaning, source and an example. */
  documentation: string;
  sortText: string;
  /** Open the list again after inserting (after `artifact_metadata.`, for the keys). */
  retrigger?: boolean;
}

export interface PayloadCompletions {
  items: PayloadCompletionItem[];
  /** Start of the name being completed; [replaceStart, cursor) is what the user typed of it. */
  replaceStart: number;
  /** End of the name under the cursor, for the "replace" mode of accepting. */
  replaceEnd: number;
}

const nameCharacter = /[A-Za-z0-9_.-]/;

/**
 * What completion reads of a document: the analysis of its version, or the analysis of an earlier
 * version and the edit since (see editedCompletion.ts), which must give the same answers.
 */
export interface CompletionSource {
  text: string;
  automation?: AutomationFields;
  /** The string token whose content holds `offset` (cursor positions included), if any. */
  stringAt(offset: number): { contentStart: number; contentEnd: number; isKey: boolean } | undefined;
  /** `metadataKeysIn(analysis, cursor)`, in any order. */
  usedMetadataKeys(cursor: number): string[];
}

/** The source of a document version's own analysis. */
export function analysisSource(analysis: PayloadAnalysis): CompletionSource {
  const { text, strings } = analysis;
  const source: CompletionSource = {
    text,
    stringAt: (offset) => {
      const index = stringAt(text, strings, offset);
      if (index < 0) return undefined;
      return { contentStart: strings.starts[index] + 1, contentEnd: contentEndAt(text, strings.starts[index], strings.ends[index]), isKey: strings.keys[index] === 1 };
    },
    usedMetadataKeys: (cursor) => metadataKeysIn(analysis, cursor),
  };
  if (analysis.automation) source.automation = analysis.automation;
  return source;
}

/**
 * Completion at `offset`: only inside a string value of the template, after `${` or inside an
 * unfinished `${…`. Everywhere else the answer is undefined, so nothing is offered.
 */
export function complete(analysis: PayloadAnalysis, offset: number, context: PayloadContext): PayloadCompletions | undefined {
  return completeFrom(analysisSource(analysis), offset, context);
}

export function completeFrom(source: CompletionSource, offset: number, context: PayloadContext): PayloadCompletions | undefined {
  const { text } = source;
  const token = source.stringAt(offset);
  if (!token || token.isKey) return undefined;
  const { contentStart, contentEnd } = token;

  let opening = -1;
  for (let at = offset - 1; at > contentStart; at--) {
    const code = text.charCodeAt(at);
    if (code === 0x7d /* } */) break;
    if (code === 0x7b /* { */ && text.charCodeAt(at - 1) === 0x24 /* $ */) {
      opening = at - 1;
      break;
    }
  }
  if (opening < 0) return undefined;

  const nameStart = opening + 2;
  let nameEnd = offset;
  while (nameEnd < contentEnd && nameCharacter.test(text[nameEnd])) nameEnd++;
  const closing = nameEnd < contentEnd && text.charCodeAt(nameEnd) === 0x7d ? '' : '}';
  const typed = text.slice(nameStart, offset);

  const eventType = automationEventType(source.automation);
  const artifactVariablesApply = eventType === undefined || !isRunEvent(eventType);

  if (typed.startsWith(`${metadataPrefix}.`)) {
    const keyTyped = typed.slice(metadataPrefix.length + 1);
    if (keyTyped.includes('.') || !artifactVariablesApply) return { items: [], replaceStart: offset, replaceEnd: nameEnd };
    const items = knownMetadataKeys(source, context, offset).map((key, position) => metadataKeyItem(key, key + closing, position, context));
    return { items, replaceStart: nameStart + metadataPrefix.length + 1, replaceEnd: nameEnd };
  }

  const items: PayloadCompletionItem[] = [];
  plainVariables().forEach((info, position) => {
    if (info.scope === 'artifact' && !artifactVariablesApply) return;
    // A platform automation never fills what only RL Studio's alert rules fill.
    if (info.scope === 'alert' && source.automation) return;
    const description = describeVariable(info, context);
    items.push({
      label: info.name,
      insertText: info.name + closing,
      kind: 'variable',
      summary: info.summary,
      detail: info.meaning,
      documentation: description.markdown,
      sortText: `0${pad(position)}`,
      retrigger: false,
    });
  });
  if (artifactVariablesApply) {
    items.push({
      label: `${metadataPrefix}.`,
      insertText: `${metadataPrefix}.`,
      kind: 'metadata-prefix',
      summary: "the artifact version's metadata: a key follows",
      detail: metadataVariable.meaning,
      documentation: [
        `**\${${metadataVariable.name}}**`,
        metadataVariable.meaning,
        `Source: ${metadataVariable.source}`,
        `Example: \`\${${metadataPrefix}.accuracy}\` is the version's \`accuracy\` metadata, such as \`${metadataVariable.example}\`.`,
      ].join('\n\n'),
      sortText: `1${pad(0)}`,
      retrigger: true,
    });
    knownMetadataKeys(source, context, offset).forEach((key, position) => {
      items.push(metadataKeyItem(`${metadataPrefix}.${key}`, `${metadataPrefix}.${key}${closing}`, position, context, key));
    });
  }
  const webhook = context.webhook;
  if (!webhook || webhook.hasAccessToken) items.push(secretItem(accessTokenName, closing, context, 0));
  if (webhook?.secretName && webhook.secretName !== accessTokenName) items.push(secretItem(webhook.secretName, closing, context, 1));
  return { items, replaceStart: nameStart, replaceEnd: nameEnd };
}

function knownMetadataKeys(source: CompletionSource, context: PayloadContext, cursor: number): string[] {
  // The key being typed is not yet "used": offering it back would only echo the prefix.
  const used = source.usedMetadataKeys(cursor);
  const keys = new Set<string>([...(context.metadataKeys ?? []), ...used, ...Object.keys(context.sample.metadata)]);
  // Keys the locale orders alike are ordered by code unit, so the list never depends on the order of first use.
  return [...keys].filter(isUsableKey).sort((a, b) => a.localeCompare(b) || (a < b ? -1 : a > b ? 1 : 0));
}

function metadataKeyItem(label: string, insertText: string, position: number, context: PayloadContext, key = label): PayloadCompletionItem {
  const description = describeResolution({ kind: 'metadata', key }, context)!;
  const example = description.example;
  return {
    label,
    insertText,
    kind: 'metadata-key',
    summary: example === undefined ? 'artifact metadata used in this workspace' : `artifact metadata, e.g. ${clip(example)}`,
    detail: `Value of the top-level metadata key "${key}" of the triggering artifact version.`,
    documentation: description.markdown,
    sortText: `2${pad(position)}`,
    retrigger: false,
  };
}

function secretItem(name: string, closing: string, context: PayloadContext, position: number): PayloadCompletionItem {
  const resolution = name === accessTokenName ? { kind: 'access-token' as const } : { kind: 'secret' as const, name };
  const description = describeResolution(resolution, context)!;
  const owner = context.webhook ? `of webhook ${context.webhook.name}` : 'when the webhook has one';
  return {
    label: name,
    insertText: name + closing,
    kind: 'secret',
    summary: description.summary,
    detail: name === accessTokenName ? `Access token ${owner}; its value is never shown.` : `Secret ${owner}; its value is never shown.`,
    documentation: description.markdown,
    sortText: `3${pad(position)}`,
    retrigger: false,
  };
}

/** An example value short enough for one row of the list. */
function clip(text: string): string {
  const line = text.replace(/\s+/g, ' ');
  return line.length <= maxSummaryExample ? line : `${line.slice(0, maxSummaryExample - 1)}…`;
}

const maxSummaryExample = 32;

function pad(position: number): string {
  return String(position).padStart(4, '0');
}
