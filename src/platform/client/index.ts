/**
 * The one platform client of the extension: every HTTP call goes through here. The extension
 * reaches it through dist/network.js (src/platform/client/index.ts), loaded on first use with undici.
 */
export { PlatformClient } from './client';
export type { TrainingApi } from './trainingApi';
export type { SystemCheckResult } from './trainingApi';
export type { InferenceApi } from './inferenceApi';
export type { ChatStream } from './chatStream';
export type { CallOptions, ClientOptions, CredentialsProvider, RequestLogEntry, RequestLogger } from './options';
export { PlatformError, isPlatformError, type PlatformErrorKind, type ApiName } from './errors';
export {
  describeFailure,
  describeFacts,
  failureLabel,
  withNextStep,
  withRetryAdvice,
  retryingIn,
  isConnectionFailure,
  type Failure,
  type FailureKind,
  type FailureAction,
  type FailureContext,
  type FailureFacts,
} from './describeFailure';
export { errorMessage } from './errorMessage';
export { redactSecrets } from './redact';
export { SseParser, SseEventTooLargeError, type SseParserOptions } from './sse';
export { ChatChunkDecoder } from './chatChunks';
export { sendRaw, closeRawConnections, maxRawBodyBytes, type RawRequest, type RawResponse } from './rawSend';
export { parseRetryAfter, retryDelay } from './retry';
export { summarizeErrorBody } from './errorBody';
export * from './types';
