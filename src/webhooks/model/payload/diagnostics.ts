import type { PayloadAnalysis } from './analysis';
import { automationEventType } from './automation';
import type { WebhookSecretNames } from './context';
import { describeEvent, isRunEvent } from './events';
import type { VariableReference } from './references';
import { isArtifactResolution, resolveName, type Resolution } from './resolve';
import { closestNames } from './suggest';
import { accessTokenName, metadataPrefix, plainVariables } from './variables';
import { errorMessage } from '../../../platform/client/errorMessage';

export type DiagnosticCode =
  | 'invalid-json'
  | 'empty-reference'
  | 'unterminated-reference'
  | 'unknown-variable'
  | 'nested-metadata-key'
  | 'metadata-key-missing'
  | 'variable-in-key'
  | 'access-token-missing'
  | 'secret-missing'
  | 'artifact-variable-on-run-event'
  | 'alert-variable-in-automation'
  | 'regex-missing'
  | 'regex-invalid'
  | 'regex-too-long'
  | 'too-large'
  | 'too-deep'
  | 'too-many-variables'
  | 'too-many-problems';

/**
 * Problems reported per document. The editor shows no more than about a thousand per file, and
 * a template that has hundreds is broken in one way that the first ones show.
 */
export const maxReportedProblems = 500;

/**
 * Longest regular expression that is compiled to check it. Compiling is linear in the length, and
 * the expression is never run here; an alias or tag pattern is a few dozen characters.
 */
export const maxRegexLength = 1000;

export interface PayloadDiagnostic {
  start: number;
  end: number;
  severity: 'error' | 'warning';
  code: DiagnosticCode;
  message: string;
  /** Replacements for the text in [start, end), offered as quick fixes. */
  fixes?: string[];
}

export interface DiagnosticOptions {
  /** The webhook chosen for the document; when absent, secret references are not judged. */
  webhook?: WebhookSecretNames;
  /** Leave JSON syntax errors out (when another validator already reports them). */
  skipSyntaxErrors?: boolean;
}

export function diagnose(analysis: PayloadAnalysis, options: DiagnosticOptions = {}): PayloadDiagnostic[] {
  const diagnostics: PayloadDiagnostic[] = [];
  const limit = analysis.limit;
  if (limit) {
    diagnostics.push({ start: limit.start, end: limit.end, severity: 'warning', code: limit.reason, message: limit.message });
    if (limit.reason === 'too-large') return diagnostics;
  }
  if (!options.skipSyntaxErrors) {
    for (const error of analysis.syntaxErrors) {
      diagnostics.push({ start: error.start, end: error.end, severity: 'error', code: 'invalid-json', message: error.message });
    }
  }
  const eventType = automationEventType(analysis.automation);
  const runEvent = eventType !== undefined && isRunEvent(eventType);
  // The same misspelling is usually repeated: its suggestions are worked out once.
  const suggestions = new Map<string, string[]>();
  const suggest = (name: string): string[] => {
    let found = suggestions.get(name);
    if (!found) {
      found = suggestionsFor(name, options.webhook);
      suggestions.set(name, found);
    }
    return found;
  };
  for (const reference of analysis.references) {
    if (diagnostics.length >= maxReportedProblems) {
      diagnostics.push({
        start: reference.start,
        end: reference.end,
        severity: 'warning',
        code: 'too-many-problems',
        message: `More than ${maxReportedProblems} problems: the variables from here on are not checked. Fix the ones above first.`,
      });
      break;
    }
    const resolution = resolveName(reference.name, options.webhook);
    if (reference.inKey) {
      diagnostics.push({
        start: reference.start,
        end: reference.end,
        severity: 'warning',
        code: 'variable-in-key',
        message: 'Variables belong in string values: in a key, the field name the receiver sees would change with every event.',
      });
    }
    if (!reference.terminated) {
      diagnostics.push(unterminated(reference, resolution, suggest));
      continue;
    }
    const problem = judge(reference, resolution, options.webhook, suggest);
    if (problem) diagnostics.push(problem);
    if (analysis.automation && resolution.kind === 'variable' && resolution.info.scope === 'alert') {
      diagnostics.push({
        start: reference.nameStart,
        end: reference.nameEnd,
        severity: 'warning',
        code: 'alert-variable-in-automation',
        message: `\`\${${shown(reference.name)}}\` is filled only when an RL Studio alert rule sends a payload: the platform sends it as written.`,
      });
    }
    if (runEvent && isArtifactResolution(resolution)) {
      diagnostics.push({
        start: reference.nameStart,
        end: reference.nameEnd,
        severity: 'warning',
        code: 'artifact-variable-on-run-event',
        message: `\`\${${shown(reference.name)}}\` describes an artifact version, but this automation watches the run event ${eventType}: it will be blank.`,
      });
    }
  }
  if (analysis.automation) diagnostics.push(...eventProblems(analysis));
  return diagnostics.sort((a, b) => a.start - b.start || a.end - b.end);
}

function unterminated(reference: VariableReference, resolution: Resolution, suggest: (name: string) => string[]): PayloadDiagnostic {
  const closable = resolution.kind !== 'unknown' && resolution.kind !== 'empty' && resolution.kind !== 'nested-metadata';
  const names = closable ? [reference.name] : resolution.kind === 'unknown' ? suggest(reference.name).filter((name) => !name.endsWith('.KEY')) : [];
  const diagnostic: PayloadDiagnostic = {
    start: reference.start,
    end: reference.end,
    severity: 'error',
    code: 'unterminated-reference',
    message: 'Unterminated `${`: close the variable with `}`.',
  };
  // Spaces that ended the name belong to the text after it: keep them outside the braces.
  const trailing = reference.name.slice(reference.name.trimEnd().length);
  if (names.length > 0) diagnostic.fixes = names.map((name) => `\${${name.trim()}}${trailing}`);
  return diagnostic;
}

function judge(reference: VariableReference, resolution: Resolution, webhook: WebhookSecretNames | undefined, suggest: (name: string) => string[]): PayloadDiagnostic | undefined {
  const atName = { start: reference.nameStart, end: reference.nameEnd };
  switch (resolution.kind) {
    case 'empty':
      return {
        start: reference.start,
        end: reference.end,
        severity: 'error',
        code: 'empty-reference',
        message: 'Empty `${}`: write a variable name between the braces, such as `${event_type}`.',
      };
    case 'metadata-without-key':
      return {
        ...atName,
        severity: 'error',
        code: 'metadata-key-missing',
        message: `\`${metadataPrefix}\` needs a key: \`\${${metadataPrefix}.KEY}\` takes the value of the top-level metadata key KEY.`,
      };
    case 'nested-metadata':
      return {
        ...atName,
        severity: 'error',
        code: 'nested-metadata-key',
        message: `Only top-level metadata keys can be used: \`${shown(resolution.key)}\` is a nested key. Use \`\${${metadataPrefix}.${shown(resolution.topLevelKey)}}\` and read the nested value on the receiving side.`,
        fixes: [`${metadataPrefix}.${resolution.topLevelKey}`],
      };
    case 'unknown': {
      const fixes = suggest(resolution.name);
      const hint = fixes.length > 0 ? ` Did you mean ${fixes.map((fix) => `\`${fix}\``).join(' or ')}?` : '';
      return { ...atName, severity: 'error', code: 'unknown-variable', message: `Unknown variable \`${shown(resolution.name)}\`.${hint}`, fixes };
    }
    case 'access-token':
      if (!webhook || webhook.hasAccessToken) return undefined;
      return {
        ...atName,
        severity: 'warning',
        code: 'access-token-missing',
        message: `The webhook \`${webhook.name}\` has no access token, so \`\${${accessTokenName}}\` has no value.`,
      };
    case 'secret': {
      if (!webhook || webhook.secretName === resolution.name) return undefined;
      const others = webhook.secretName ? closestOrAll(resolution.name, [webhook.secretName]) : [];
      const has = webhook.secretName ? `its secret is \`${webhook.secretName}\`` : 'it has no secret';
      const diagnostic: PayloadDiagnostic = {
        ...atName,
        severity: 'warning',
        code: 'secret-missing',
        message: `The webhook \`${webhook.name}\` has no secret \`${shown(resolution.name)}\` (${has}).`,
      };
      if (others.length > 0) diagnostic.fixes = others;
      return diagnostic;
    }
    default:
      return undefined;
  }
}

/** A name from the document as a message quotes it: long ones are cut, so the message stays readable. */
function shown(name: string): string {
  return name.length > 60 ? `${name.slice(0, 60)}…` : name;
}

/** The one secret a webhook can have is worth offering whatever its spelling: there is nothing else. */
function closestOrAll(name: string, candidates: string[]): string[] {
  const close = closestNames(name, candidates);
  return close.length > 0 ? close : candidates;
}

function suggestionsFor(name: string, webhook: WebhookSecretNames | undefined): string[] {
  const trimmed = name.trim();
  const dot = trimmed.indexOf('.');
  if (dot > 0) {
    // `${artifact_metdata.accuracy}`: fix the prefix, keep the key.
    const [head] = closestNames(trimmed.slice(0, dot), [metadataPrefix]);
    return head ? [`${head}${trimmed.slice(dot)}`] : [];
  }
  const candidates = plainVariables().map((variable) => variable.name);
  if (!webhook || webhook.hasAccessToken) candidates.push(accessTokenName);
  if (webhook?.secretName) candidates.push(webhook.secretName);
  candidates.push(metadataPrefix);
  return closestNames(name, candidates).map((candidate) => (candidate === metadataPrefix ? `${metadataPrefix}.KEY` : candidate));
}

function eventProblems(analysis: PayloadAnalysis): PayloadDiagnostic[] {
  const event = analysis.automation?.event;
  const type = automationEventType(analysis.automation);
  if (!event || !type) return [];
  const option = describeEvent(type).regexOption;
  if (!option) return [];
  const what = option === 'aliasRegex' ? 'alias' : 'tag';
  const regex = event[option];
  const anchor = event.type ?? event;
  if (!regex || (typeof regex.value === 'string' && regex.value.length === 0)) {
    return [
      {
        start: anchor.start,
        end: anchor.end,
        severity: 'error',
        code: 'regex-missing',
        message: `The ${type} event needs ${what === 'alias' ? 'an alias' : 'a tag'} regular expression: add "${option}" to the event, for example "^production$".`,
      },
    ];
  }
  if (typeof regex.value !== 'string') {
    return [{ start: regex.start, end: regex.end, severity: 'error', code: 'regex-invalid', message: `"${option}" must be a string holding a regular expression.` }];
  }
  if (regex.value.length > maxRegexLength) {
    return [
      {
        start: regex.start,
        end: regex.end,
        severity: 'warning',
        code: 'regex-too-long',
        message: `The ${what} regular expression is ${regex.value.length.toLocaleString('en-US')} characters long, too long to check (the limit is ${maxRegexLength.toLocaleString('en-US')}): it is not checked.`,
      },
    ];
  }
  try {
    // Compiled to find syntax errors, never run: a pattern such as (a+)+$ could backtrack for ages.
    new RegExp(regex.value);
    return [];
  } catch (error) {
    const reason = errorMessage(error).replace(/^Invalid regular expression: /, '');
    return [{ start: regex.start, end: regex.end, severity: 'error', code: 'regex-invalid', message: `The ${what} regular expression does not compile: ${reason}.` }];
  }
}
