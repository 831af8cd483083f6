import type { Services } from '../services';

/**
 * What a failed call means for a view: signed out and rejected keys, an unreachable server and
 * missing settings are states of the whole view (one welcome message), not errors of one node.
 */
export type FailureKind = 'signed-out' | 'rejected' | 'not-configured' | 'unreachable' | 'not-found' | 'other';

export function classifyFailure(services: Services, error: unknown): FailureKind {
  const platformError = services.asPlatformError(error);
  if (!platformError) return 'other';
  if (platformError.kind === 'signed-out') return 'signed-out';
  if (platformError.kind === 'not-configured') return 'not-configured';
  if (platformError.status === 401) return 'rejected';
  if (platformError.status === 404) return 'not-found';
  if (platformError.kind === 'network' || platformError.kind === 'timeout') return 'unreachable';
  if (platformError.kind === 'invalid-response' || (platformError.status !== undefined && (platformError.status >= 500 || platformError.status === 429))) return 'unreachable';
  return 'other';
}

/** The one line to show for an error: the client's message, already human-readable. */
export function messageOf(services: Services, error: unknown): string {
  const text = services.asPlatformError(error)?.message ?? (error instanceof Error ? error.message : String(error));
  return services.log.redact(text);
}
