/**
 * Errors thrown by route handlers. The server renders them in the shape of the API that was
 * called: the training API answers like FastAPI (`{"detail": ...}`), the inference API like an
 * OpenAI-compatible server (`{"error": {"message", "type", "code"}}`).
 */

/** One entry of a FastAPI validation error list. */
export interface ValidationIssue {
  type: string;
  loc: (string | number)[];
  msg: string;
  input?: unknown;
  ctx?: Record<string, unknown>;
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string | ValidationIssue[],
    /** For the inference shape; derived from the status when absent. */
    readonly code?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof detail === 'string' ? detail : detail.map((issue) => issue.msg).join('; '));
  }
}

export class ValidationError extends HttpError {
  constructor(issues: ValidationIssue[]) {
    super(422, issues);
  }
}

export type ApiName = 'training' | 'inference';

const inferenceTypes: Record<number, [type: string, code: string]> = {
  400: ['invalid_request_error', 'invalid_request'],
  401: ['authentication_error', 'invalid_api_key'],
  402: ['insufficient_quota', 'quota_exceeded'],
  403: ['permission_error', 'region_not_supported'],
  404: ['invalid_request_error', 'not_found'],
  405: ['invalid_request_error', 'method_not_allowed'],
  409: ['invalid_request_error', 'conflict'],
  422: ['invalid_request_error', 'invalid_request'],
  429: ['rate_limit_error', 'concurrency_limit'],
  500: ['server_error', 'internal_error'],
  502: ['server_error', 'bad_gateway'],
  503: ['server_error', 'engine_overloaded'],
  504: ['server_error', 'gateway_timeout'],
};

/** The OpenAI-style error body the inference API uses. */
export function inferenceErrorBody(status: number, message: string, code?: string): object {
  const [type, defaultCode] = inferenceTypes[status] ?? [status >= 500 ? 'server_error' : 'invalid_request_error', `http_${status}`];
  return { error: { message, type, code: code ?? defaultCode } };
}

export function errorBody(api: ApiName, error: HttpError): object {
  if (api === 'training') return { detail: error.detail };
  return inferenceErrorBody(error.status, error.message, error.code);
}
