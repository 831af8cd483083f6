import { visit, type ParseErrorCode } from '../../../platform/kit/strictJson';
import { firstTooDeep, maxJsonDepth } from '../../../platform/kit/strictJson';
import { maxAnalysedLength, maxReferences, type PayloadAnalysis } from './analysis';
import { scanValidJson } from './fastScan';
import { describeParseError } from './jsonErrors';
import type { WebhookSecretNames } from './context';
import { resolveName } from './resolve';
import type { SampleEvent } from './sample';

export const maskedSecret = '********';

/** Names of references left as written that are listed: a person reads them in one note. */
export const maxUnresolvedListed = 20;

/** Longest rendering produced: sample values repeated by many references could otherwise grow without end. */
export const maxRenderedLength = 4 * maxAnalysedLength;

export interface RenderOptions {
  sample: SampleEvent;
  webhook?: WebhookSecretNames;
  /**
   * Secret values by name (ACCESS_TOKEN and the webhook's secret name). When `maskSecrets` is set
   * every secret reference renders as a mask instead, values or not.
   */
  secrets?: Record<string, string | undefined>;
  maskSecrets: boolean;
}

export interface Substitution {
  /** The span of `${…}` in the template. */
  start: number;
  end: number;
  /** The span of the substituted value in the rendering. */
  renderedStart: number;
  renderedEnd: number;
  name: string;
}

export interface RenderedPayload {
  text: string;
  substitutions: Substitution[];
  /** References left as written (unknown variables and secrets with no value): the first `maxUnresolvedListed` names. */
  unresolved: string[];
  /** Set when the rendering is not valid JSON. */
  invalid?: { offset: number; message: string };
  /** True when nothing was rendered (the template is past a limit): there is no body to send. */
  notRendered?: boolean;
}

/**
 * Substitutes every variable the way the platform does: the body is the template text with each
 * `${…}` replaced by its value, verbatim. A value holding a quote, a backslash or a line break
 * therefore breaks the JSON, and `invalid` says where and why.
 */
export function renderPayload(analysis: PayloadAnalysis, options: RenderOptions): RenderedPayload {
  const { text } = analysis;
  if (analysis.limit) {
    const why = {
      'too-large': 'the file is too large to analyse',
      'too-deep': `it is nested deeper than ${maxJsonDepth} levels`,
      'too-many-variables': `it holds more than ${maxReferences.toLocaleString('en-US')} variables`,
    }[analysis.limit.reason];
    return notRendered(`The payload was not rendered: ${why}.`);
  }
  const region = analysis.automation ? analysis.automation.payload : { start: 0, end: text.length };
  if (!region) return notRendered('The automation has no "payload".');

  const parts: string[] = [];
  const substitutions: Substitution[] = [];
  const unresolved = new Set<string>();
  let copiedUpTo = region.start;
  let length = 0;
  const append = (part: string): void => {
    parts.push(part);
    length += part.length;
  };
  // A name is usually used many times: its value is looked up once.
  const values = new Map<string, string | undefined>();
  for (const reference of analysis.references) {
    if (!reference.terminated) continue;
    let value = values.get(reference.name);
    if (value === undefined && !values.has(reference.name)) {
      value = valueOf(reference.name, options);
      values.set(reference.name, value);
    }
    if (value === undefined) {
      if (unresolved.size < maxUnresolvedListed) unresolved.add(reference.name);
      continue;
    }
    if (length + (reference.start - copiedUpTo) + value.length > maxRenderedLength) {
      return notRendered(`The payload was not rendered: with the sample values it would be larger than ${maxRenderedLength / (1024 * 1024)} MB.`);
    }
    append(text.slice(copiedUpTo, reference.start));
    const renderedStart = length;
    append(value);
    substitutions.push({ start: reference.start, end: reference.end, renderedStart, renderedEnd: length, name: reference.name });
    copiedUpTo = reference.end;
  }
  append(text.slice(copiedUpTo, region.end));
  const rendered = parts.join('');
  const result: RenderedPayload = { text: rendered, substitutions, unresolved: [...unresolved] };
  const invalid = firstJsonError(rendered, substitutions);
  if (invalid) result.invalid = invalid;
  return result;
}

function valueOf(name: string, options: RenderOptions): string | undefined {
  const resolution = resolveName(name, options.webhook);
  switch (resolution.kind) {
    case 'variable':
      return options.sample.values[resolution.info.name] ?? '';
    case 'metadata':
      // An artifact without that key renders blank rather than leaving the reference in place.
      return options.sample.metadata[resolution.key] ?? '';
    case 'access-token':
    case 'secret': {
      const secretName = resolution.kind === 'access-token' ? 'ACCESS_TOKEN' : resolution.name;
      if (options.maskSecrets) return maskedSecret;
      return options.secrets?.[secretName];
    }
    default:
      return undefined;
  }
}

function notRendered(message: string): RenderedPayload {
  return { text: '', substitutions: [], unresolved: [], invalid: { offset: 0, message }, notRendered: true };
}

function firstJsonError(rendered: string, substitutions: readonly Substitution[]): RenderedPayload['invalid'] {
  // Valid JSON, the usual case, is confirmed without recursion; only broken JSON goes to the
  // visitor for its explanation, and only when it nests shallow enough for the visitor's recursion.
  if (scanValidJson(rendered, () => undefined)) return undefined;
  const tooDeepAt = firstTooDeep(rendered);
  if (tooDeepAt >= 0) {
    return { offset: tooDeepAt, message: `The rendered payload is nested deeper than ${maxJsonDepth} levels, so it was not checked past this point.` };
  }
  let first: { offset: number; code: ParseErrorCode } | undefined;
  visit(
    rendered,
    {
      onError: (code, offset) => {
        first ??= { offset, code };
      },
    },
    { disallowComments: true, allowTrailingComma: false },
  );
  if (!first) return undefined;
  const reason = describeParseError(first.code).replace(/\.$/, '');
  // Values are inserted verbatim, so a value that needs escaping is the usual cause.
  const culprits = [
    ...new Set(substitutions.filter((substitution) => needsEscaping(rendered, substitution.renderedStart, substitution.renderedEnd)).map((substitution) => `\`\${${substitution.name}}\``)),
  ];
  const because =
    culprits.length > 0 ? ` The value of ${culprits.join(', ')} holds a quote, a backslash or a line break, which the platform inserts without escaping.` : ' The template itself is not valid JSON.';
  return { offset: first.offset, message: `The rendered payload is not valid JSON: ${reason}.${because}` };
}

function needsEscaping(text: string, start: number, end: number): boolean {
  for (let at = start; at < end; at++) {
    const code = text.charCodeAt(at);
    if (code === 0x22 || code === 0x5c || code < 0x20) return true;
  }
  return false;
}
