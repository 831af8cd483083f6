import { describeFailure, withRetryAdvice, type Failure } from '../../platform/client/describeFailure';
import { redactSecrets } from '../../platform/client/redact';
import type { AnswerError } from './conversationTypes';

/** Puts a failure into words; the platform backend's names the API's address as the views do. */
export type FailureWords = (error: unknown) => Failure;

/**
 * Turns a failure of a chat request into what the message footer shows and which Retry it offers.
 * The words are describeFailure's, the same as the trees, the status bar and notifications show;
 * the chat adds only when to try again, since here a person retries. The message is redacted last:
 * `secrets` are the values the caller knows (the API key), and credentials in their usual syntax
 * (`Bearer …`) are masked in any case.
 */
export function describeAnswerError(error: unknown, secrets: readonly string[] = [], describe: FailureWords = describeFailure): AnswerError {
  const failure = describe(error);
  const action = failure.action === 'sign-in' ? 'signIn' : failure.action === 'configure' ? 'configure' : undefined;
  return {
    kind: failure.kind,
    message: redactSecrets(withRetryAdvice(failure), secrets),
    retryable: failure.retryable,
    ...(failure.status === undefined ? {} : { status: failure.status }),
    ...(failure.retryInMs === undefined ? {} : { retryAfterMs: failure.retryInMs }),
    ...(action ? { action } : {}),
  };
}
