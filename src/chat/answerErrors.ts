import { redactSecrets } from '../api/redact';
import type { AnswerError } from './conversationTypes';

/**
 * The fields of the client's PlatformError this module reads. Matched by shape rather than
 * imported, so the chat logic never loads the network bundle.
 */
interface PlatformErrorLike {
  kind: string;
  status?: number;
  message: string;
  retryAfterMs?: number;
}

function isPlatformErrorLike(error: unknown): error is PlatformErrorLike {
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as PlatformErrorLike).kind === 'string' &&
    typeof (error as PlatformErrorLike).message === 'string'
  );
}

/**
 * Turns a failure of a chat request into what the message footer shows and which Retry it offers.
 * The message is cut to one line first and redacted last, so a cut cannot leave part of a key
 * visible: `secrets` are the values the caller knows (the API key), and credentials in their usual
 * syntax (`Bearer …`) are masked in any case.
 */
export function describeAnswerError(error: unknown, secrets: readonly string[] = []): AnswerError {
  const described = describe(error);
  return { ...described, message: redactSecrets(described.message, secrets) };
}

function describe(error: unknown): AnswerError {
  if (!isPlatformErrorLike(error)) {
    const message = error instanceof Error ? error.message : String(error);
    return { kind: 'unknown', message: oneLine(message), retryable: true };
  }
  const base = { kind: error.kind, status: error.status, retryAfterMs: error.retryAfterMs };
  switch (error.kind) {
    case 'stream-cut':
      return { ...base, message: 'The answer was cut off: the connection closed before the server finished.', retryable: true };
    case 'timeout':
      return { ...base, message: `The server stopped answering (${oneLine(error.message)}).`, retryable: true };
    case 'network':
      return { ...base, message: `Could not reach the server: ${oneLine(error.message)}`, retryable: true };
    case 'signed-out':
      return { ...base, message: 'Sign in with your platform API key to chat.', retryable: false, action: 'signIn' };
    case 'not-configured':
      return { ...base, message: oneLine(error.message), retryable: false, action: 'configure' };
    case 'invalid-response':
      return { ...base, message: `The server sent an answer that could not be read: ${oneLine(error.message)}`, retryable: true };
    default:
      break;
  }
  const status = error.status;
  const detail = oneLine(error.message);
  if (status === 401) return { ...base, message: `The platform rejected the API key or the project (401). ${detail}`, retryable: false, action: 'signIn' };
  if (status === 402) return { ...base, message: `Quota exceeded (402): add credit or wait for the quota to renew. ${detail}`, retryable: false };
  if (status === 403) return { ...base, message: `Not allowed (403): the service may not be available in your region. ${detail}`, retryable: false };
  if (status === 404) return { ...base, message: `The model was not found (404). ${detail}`, retryable: false };
  if (status === 429) {
    const wait = error.retryAfterMs !== undefined ? ` Try again in ${Math.ceil(error.retryAfterMs / 1000)} s.` : '';
    return { ...base, message: `Too many requests at once (429).${wait} ${detail}`.trim(), retryable: true };
  }
  if (status !== undefined && status >= 500) return { ...base, message: `The server failed (${status}). ${detail}`, retryable: true };
  return { ...base, message: detail, retryable: status === undefined };
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 400 ? `${line.slice(0, 399)}…` : line;
}
