/**
 * What RL Studio offers in VS Code's chat model picker, and how its failures read there. Pure: the
 * provider (src/chat/host/languageModelProvider.ts) turns these decisions into the editor's types.
 *
 * Every model is listed, so that extensions can still select any of them by id; only the pinned
 * checkpoints and the catalogue models the setting names are offered in the picker itself, so a
 * catalogue of hundreds does not flood it.
 */
import { describeFailure, duration, withRetryAdvice, type Failure } from '../../platform/client/describeFailure';
import { parseCheckpointModelId } from '../../platform/kit/checkpointIds';
import type { FeatureSettingName } from '../../platform/host/settingNames';
import { shortModelLabel } from '../../platform/kit/modelIds';

/** The setting that says which catalogue models the picker shows, by its name under `rlStudio.`, and in full. */
export const pickerModelsSettingName = 'languageModels.pickerModels' satisfies FeatureSettingName;
const pickerModelsSetting = `rlStudio.${pickerModelsSettingName}`;
/** Catalogue models the picker shows at most, however many the setting matches. */
export const maxPickerCatalogueModels = 16;
/** Entries listed at most (pinned checkpoints first, then the catalogue). */
export const maxListedModels = 200;
/** Entries of the setting read at most, and the longest entry read. */
export const maxPatterns = 50;
const maxPatternChars = 200;
/** Larger contexts are not believed: the server's number is only a hint. */
const maxContextTokens = 10_000_000;
/** Catalogue ids longer than this are not listed: no model is named so. */
const maxModelIdChars = 1_000;
/** What the editor is told when the server does not say: conservative, so it trims context early. */
export const assumedLimits: ModelLimits = { maxInputTokens: 32_768, maxOutputTokens: 8_192 };
/** The largest answer asked for, whatever the context. */
const maxAnswerTokens = 8_192;

export interface ModelLimits {
  maxInputTokens: number;
  maxOutputTokens: number;
  /** The model's whole context, when the server said it. */
  contextTokens?: number;
}

/** One entry of the editor's model list, in the editor's own terms but without its types. */
export interface PickerModel extends ModelLimits {
  id: string;
  name: string;
  family: string;
  version: string;
  detail: string;
  tooltip: string;
  /** Offered in the picker; otherwise only selectable by id (by extensions). */
  isUserSelectable: boolean;
}

export interface PickerPlan {
  models: PickerModel[];
  /** Catalogue models offered in the picker, of how many usable ones; pinned checkpoints offered. */
  offeredCatalogue: number;
  catalogueModels: number;
  pinnedCheckpoints: number;
  /** Catalogue models the setting matched beyond those the picker shows. */
  matchedBeyondCap: number;
  /** Entries not listed at all, beyond `maxListedModels`. */
  notListed: number;
}

/** A training model as remembered: the names a checkpoint id carries, and the base it was trained from. */
export interface KnownTrainingModel {
  entity?: unknown;
  project?: unknown;
  name?: unknown;
  base_model?: unknown;
}

export interface PickerInput {
  /** `/v1/models` entries as the server sent them: nothing in them is trusted. */
  catalogue: readonly unknown[];
  /** Pinned checkpoints, newest first, as stored. */
  pinned: readonly { id?: unknown; pinnedAt?: unknown }[];
  /** The remembered training models, to find a pinned checkpoint's base model. */
  trainingModels: readonly KnownTrainingModel[];
  /** The setting's value as read (anything). */
  patterns: unknown;
}

/** The setting's entries that can be used: strings of 1 to 200 characters, the first 50 entries read. */
export function readPickerPatterns(value: unknown): string[] {
  if (!Array.isArray(value)) return ['*'];
  return value.slice(0, maxPatterns).filter((entry): entry is string => typeof entry === 'string' && entry.length > 0 && entry.length <= maxPatternChars);
}

/**
 * Whether a model id matches a pattern: `*` is any run of characters (none included), every other
 * character stands for itself, case counts. Linear backtracking to the last `*`, no regular
 * expression, so no pattern can make it slow.
 */
export function matchesPattern(pattern: string, id: string): boolean {
  let p = 0;
  let t = 0;
  let star = -1;
  let resume = 0;
  while (t < id.length) {
    if (p < pattern.length && pattern[p] === '*') {
      star = p++;
      resume = t;
    } else if (p < pattern.length && pattern[p] === id[t]) {
      p++;
      t++;
    } else if (star >= 0) {
      p = star + 1;
      t = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.length && pattern[p] === '*') p++;
  return p === pattern.length;
}

/**
 * The editor's limits from a model list entry's `max_model_len` (what vLLM servers send): the answer
 * gets a quarter of the context, at most 8,192 tokens, the prompt the rest. Anything but a positive
 * whole number up to ten million is ignored, and the conservative default applies.
 */
export function limitsFromContext(maxModelLen: unknown): ModelLimits {
  if (typeof maxModelLen !== 'number' || !Number.isInteger(maxModelLen) || maxModelLen <= 0 || maxModelLen > maxContextTokens) return { ...assumedLimits };
  // At least one token each way, even for a context too small to share.
  const maxOutputTokens = Math.max(1, Math.min(maxAnswerTokens, Math.floor(maxModelLen / 4)));
  return { maxInputTokens: Math.max(1, maxModelLen - maxOutputTokens), maxOutputTokens, contextTokens: maxModelLen };
}

interface CatalogueModel {
  id: string;
  root?: string;
  created?: number;
  maxModelLen?: unknown;
}

/** The usable catalogue entries: an object with a non-empty string id, each id once, sorted by id. */
function readCatalogue(entries: readonly unknown[]): CatalogueModel[] {
  const byId = new Map<string, CatalogueModel>();
  for (const entry of entries) {
    if (typeof entry !== 'object' || entry === null) continue;
    const { id, root, created, max_model_len } = entry as Record<string, unknown>;
    if (typeof id !== 'string' || id === '' || id.length > maxModelIdChars || byId.has(id)) continue;
    byId.set(id, {
      id,
      ...(typeof root === 'string' && root !== '' ? { root } : {}),
      ...(typeof created === 'number' && Number.isFinite(created) ? { created } : {}),
      maxModelLen: max_model_len,
    });
  }
  return [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** The base model a pinned checkpoint was trained from, when its training model is remembered with one. */
function baseModelOf(pinId: string, trainingModels: readonly KnownTrainingModel[]): string | undefined {
  const ref = parseCheckpointModelId(pinId);
  if (!ref) return undefined;
  const model = trainingModels.find((candidate) => candidate.entity === ref.entity && candidate.project === ref.project && candidate.name === ref.name);
  return typeof model?.base_model === 'string' && model.base_model !== '' ? model.base_model : undefined;
}

/** "128K" for 131,072, else the number with separators. */
function contextWords(tokens: number): string {
  if (tokens >= 1024 * 1024 && tokens % (1024 * 1024) === 0) return `${tokens / (1024 * 1024)}M`;
  if (tokens >= 1024 && tokens % 1024 === 0) return `${tokens / 1024}K`;
  return tokens.toLocaleString('en-US');
}

function contextNote(limits: ModelLimits): string {
  return limits.contextTokens === undefined ? '' : `, ${contextWords(limits.contextTokens)} context`;
}

/**
 * The editor's model list: pinned checkpoints first (always offered in the picker), then the
 * catalogue sorted by id, the first 16 models the setting matches offered in the picker and the
 * rest listed for selection by id only; at most 200 entries, those offered first.
 */
export function planPickerModels(input: PickerInput): PickerPlan {
  const patterns = readPickerPatterns(input.patterns);
  const catalogue = readCatalogue(input.catalogue);
  const catalogueById = new Map(catalogue.map((model) => [model.id, model]));
  const pinned: PickerModel[] = [];
  const pinnedIds = new Set<string>();
  for (const pin of input.pinned) {
    if (typeof pin?.id !== 'string' || pin.id === '' || pinnedIds.has(pin.id)) continue;
    pinnedIds.add(pin.id);
    const baseModel = baseModelOf(pin.id, input.trainingModels);
    const base = baseModel === undefined ? undefined : catalogueById.get(baseModel);
    const limits = base ? limitsFromContext(base.maxModelLen) : { ...assumedLimits };
    pinned.push({
      id: pin.id,
      name: shortModelLabel(pin.id),
      family: parseCheckpointModelId(pin.id)?.name ?? pin.id,
      version: typeof pin.pinnedAt === 'string' ? pin.pinnedAt : '',
      detail: `RL Studio, pinned${contextNote(limits)}`,
      tooltip: `${pin.id}, pinned in RL Studio and served by the training API${baseModel ? `; trained from ${baseModel}` : ''}${limits.contextTokens === undefined ? '' : `; context ${limits.contextTokens.toLocaleString('en-US')} tokens`}`,
      ...limits,
      isUserSelectable: true,
    });
  }
  const offered: PickerModel[] = [];
  const listedOnly: PickerModel[] = [];
  let matchedBeyondCap = 0;
  for (const model of catalogue) {
    if (pinnedIds.has(model.id)) continue;
    const matched = patterns.some((pattern) => matchesPattern(pattern, model.id));
    const selectable = matched && offered.length < maxPickerCatalogueModels;
    if (matched && !selectable) matchedBeyondCap++;
    const limits = limitsFromContext(model.maxModelLen);
    (selectable ? offered : listedOnly).push({
      id: model.id,
      name: model.id.split('/').at(-1) || model.id,
      family: model.root ?? model.id,
      version: model.created === undefined ? '' : String(model.created),
      detail: `RL Studio${contextNote(limits)}`,
      tooltip: `${model.id}, served by the RL Studio inference API${limits.contextTokens === undefined ? '' : `; context ${limits.contextTokens.toLocaleString('en-US')} tokens`}`,
      ...limits,
      isUserSelectable: selectable,
    });
  }
  const all = [...pinned, ...offered, ...listedOnly];
  return {
    models: all.slice(0, maxListedModels),
    offeredCatalogue: offered.length,
    catalogueModels: offered.length + listedOnly.length,
    pinnedCheckpoints: pinned.length,
    matchedBeyondCap,
    notListed: Math.max(0, all.length - maxListedModels),
  };
}

/** The log line for a plan: what the picker offers, and what it left out and why. */
export function planSummary(plan: PickerPlan): string {
  const parts = [
    `the model picker offers ${plan.offeredCatalogue} of ${plan.catalogueModels} catalogue model${plan.catalogueModels === 1 ? '' : 's'} (${pickerModelsSetting}) and ${plan.pinnedCheckpoints} pinned checkpoint${plan.pinnedCheckpoints === 1 ? '' : 's'}`,
  ];
  if (plan.matchedBeyondCap > 0)
    parts.push(
      `${plan.matchedBeyondCap} more catalogue model${plan.matchedBeyondCap === 1 ? '' : 's'} matched the setting than the ${maxPickerCatalogueModels} it shows: list fewer ids or narrower patterns in the setting to choose which`,
    );
  if (plan.notListed > 0) parts.push(`${plan.notListed} model${plan.notListed === 1 ? ' was' : 's were'} not listed to the editor at all (at most ${maxListedModels})`);
  return `${parts.join('; ')}.`;
}

/** The editor's kinds of language model failure; 'other' is a plain Error. */
export type LanguageModelFailureKind = 'noPermissions' | 'notFound' | 'blocked' | 'other';

export interface LanguageModelFailure {
  kind: LanguageModelFailureKind;
  /** What happened and what to do, redacted. */
  message: string;
}

export interface LanguageModelFailureOptions {
  /** The failure's words; the extension's own names the API's address and redacts. */
  describe?: (error: unknown) => Failure;
  /** Applied to the whole message, last. */
  redact?: (text: string) => string;
}

/**
 * How a failed request reads to whoever called the model through the editor: a refused key (401)
 * or a refused request (403) is NoPermissions, a model the server does not have (404) NotFound, a
 * 429 Blocked (with the wait the server asked for), anything else a plain error with the reason.
 */
export function languageModelFailure(error: unknown, options: LanguageModelFailureOptions = {}): LanguageModelFailure {
  const failure = (options.describe ?? describeFailure)(error);
  const redact = options.redact ?? ((text: string) => text);
  const decided = decide(failure);
  return { kind: decided.kind, message: redact(decided.message) };
}

function decide(failure: Failure): LanguageModelFailure {
  switch (failure.kind) {
    case 'rejected':
      return { kind: 'noPermissions', message: `The RL Studio key was rejected${statusNote(failure)}: sign in again with RL Studio: Sign In.` };
    case 'forbidden':
      return { kind: 'noPermissions', message: `${asSentence(failure.message)} Sign in with a key that may use this model: RL Studio: Sign In.` };
    case 'not-found':
      return {
        kind: 'notFound',
        message:
          failure.api === 'training'
            ? `${asSentence(failure.message)} The checkpoint may have been deleted: pin another one from the RL Studio Models view.`
            : `${asSentence(failure.message)} It may have left the catalogue: choose another RL Studio model.`,
      };
    case 'rate-limited': {
      const wait = failure.retryInMs !== undefined && failure.retryInMs >= 1000 ? `Try again in ${duration(failure.retryInMs)}.` : 'Try again in a moment.';
      return { kind: 'blocked', message: `${asSentence(failure.message)} ${wait}` };
    }
    default:
      return { kind: 'other', message: withRetryAdvice(failure) };
  }
}

function statusNote(failure: Failure): string {
  return failure.status === undefined ? '' : ` (${failure.status})`;
}

function asSentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}
