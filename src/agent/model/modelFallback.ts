/**
 * Which model reads `@rlstudio`'s facts or answers its question when the model chosen in the chat
 * cannot (no chat provider signed in, a quota, a model that is gone), and the one italic line
 * that says so. RL Studio's own models stand in, the one its chat starts new chats with first.
 * No `vscode` import.
 */
import { oneLine } from '../../platform/kit/format';
import { escapeMarkdown } from '../../platform/kit/markdownText';
import { escapedLine, foreignToken } from '../../platform/agent/foreignText';
import { errorMessage } from '../../platform/client/errorMessage';

/** What the participant knows of a model. */
export interface ModelSummary {
  id: string;
  name: string;
  vendor: string;
}

/** Characters of a failure's reason shown at most. */
const maxReasonChars = 200;

/**
 * The model to ask instead of `chosen`: among RL Studio's `offered` models, the one RL Studio's
 * chat starts new chats with (`preferredId`), else the first; never the chosen model again.
 */
export function fallbackModel<Model extends ModelSummary>(chosen: ModelSummary | undefined, offered: readonly Model[], preferredId: string | undefined): Model | undefined {
  const others = offered.filter((model) => !(chosen && model.vendor === chosen.vendor && model.id === chosen.id));
  return (preferredId ? others.find((model) => model.id === preferredId) : undefined) ?? others[0];
}

/** A failure's reason as Markdown on one line: cut, then redacted, then escaped. */
export function failureReason(error: unknown, redact: (text: string) => string): string {
  const message = errorMessage(error);
  return escapeMarkdown(redact(escapedLine(oneLine(message, maxReasonChars) || 'no reason given')));
}

/** The opening of a notice: what became of the model chosen in the chat. */
function chosenOutcome(chosen: ModelSummary | undefined, reason: string): string {
  return chosen ? `The chosen model, ${modelName(chosen)}, could not answer (${reason})` : 'No model is chosen in the chat';
}

function modelName(model: ModelSummary | undefined): string {
  return model ? escapeMarkdown(foreignToken(model.name || model.id)) : 'no model (none is chosen in the chat)';
}

export interface StandIn {
  chosen: ModelSummary | undefined;
  /** The chosen model's failure, from `failureReason`. */
  reason: string;
  fallback: ModelSummary;
  /** True when the question wanted RL Studio's tools and the stand-in cannot call them. */
  withoutTools: boolean;
}

/** The line before a stand-in's answer: which model answered, and why. */
export function standInNotice({ chosen, reason, fallback, withoutTools }: StandIn): string {
  const without = withoutTools ? ' It calls no tools, so its answer is not read from your jobs: `/status`, `/jobs`, `/explain` and `/rollouts` answer with measured numbers.' : '';
  return `*${chosenOutcome(chosen, reason)}, so RL Studio's model ${modelName(fallback)} answered instead.${without}*`;
}

export interface NoAnswer {
  chosen: ModelSummary | undefined;
  reason: string;
  /** The stand-in that failed too, with its reason; none when RL Studio offered no model. */
  fallback?: { model: ModelSummary; reason: string };
  /** Whether RL Studio is signed in: if not, signing in brings its models. */
  signedIn: boolean;
  /** What the model was to do: read the facts above, or answer a question. */
  about: 'facts' | 'question';
}

/** The line that stands where no model's answer could: what failed, and what to do. */
export function noAnswerNotice({ chosen, reason, fallback, signedIn, about }: NoAnswer): string {
  const fallbackText = fallback
    ? `, nor could RL Studio's model ${modelName(fallback.model)} (${fallback.reason})`
    : signedIn
      ? ", and RL Studio's inference API offers no model now"
      : ', and RL Studio offers its models only when signed in';
  const todo = signedIn
    ? "Choose another model in the chat's model picker, then ask again."
    : 'Sign in to RL Studio (command "RL Studio: Sign In") or choose another model in the chat\'s model picker, then ask again.';
  const standing = about === 'facts' ? ' The facts above are measured from the job and stand without a model.' : ' `/status`, `/jobs` and `/rollouts` answer without a model.';
  return `*${chosenOutcome(chosen, reason)}${fallbackText}. ${todo}${standing}*`;
}

/** The line after an answer a model stopped in the middle of. */
export function cutAnswerNotice(model: ModelSummary, reason: string, about: 'facts' | 'question'): string {
  return `*${modelName(model)} stopped before the end of its answer (${reason}).${about === 'facts' ? ' The facts above are measured from the job.' : ''}*`;
}

/**
 * A model's answer with its first part already read, so a model that fails before its first
 * word can be replaced by another; the parts come back whole, the first included.
 */
export async function openedStream<Part>(parts: AsyncIterable<Part>): Promise<AsyncIterable<Part>> {
  const iterator = parts[Symbol.asyncIterator]();
  const first = await iterator.next();
  const rest: AsyncIterable<Part> = { [Symbol.asyncIterator]: () => iterator };
  return {
    async *[Symbol.asyncIterator]() {
      if (first.done) return;
      yield first.value;
      yield* rest;
    },
  };
}
