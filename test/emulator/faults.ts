/**
 * Injected failures: a fault spoils the next matching request(s) before normal handling, the way a
 * flaky proxy, an overloaded engine or a dropped connection would.
 */
import type { ServerResponse } from 'node:http';
import type { Fault } from './contract';
import { inferenceErrorBody, type ApiName } from './httpError';
import { Prng } from './prng';
import type { EmulatorState } from './state';
import { isPlainObject } from './validation';

const FAULT_KINDS = new Set(['status', 'html', 'truncated-json', 'garbage', 'reset', 'cut-stream']);

export function addFault(state: EmulatorState, fault: Fault): void {
  state.faults.push({ fault: { ...fault }, remaining: fault.times ?? 1 });
}

function matches(fault: Fault, method: string, path: string): boolean {
  if (fault.method && fault.method.toUpperCase() !== method) return false;
  if (fault.path && !path.includes(fault.path)) return false;
  // Cutting a stream only makes sense for chat completions; other requests leave it waiting.
  return fault.kind !== 'cut-stream' || path.includes('/chat/completions');
}

/** Uses up the first fault that matches the request, if any. */
export function takeFault(state: EmulatorState, method: string, path: string): Fault | undefined {
  const index = state.faults.findIndex(({ fault }) => matches(fault, method, path));
  if (index < 0) return undefined;
  const active = state.faults[index]!;
  if (active.remaining > 0) active.remaining--;
  if (active.remaining === 0) state.faults.splice(index, 1);
  return active.fault;
}

/** Checks a fault received as JSON by the control endpoint; returns a complaint or undefined. */
export function faultProblem(value: unknown): string | undefined {
  if (!isPlainObject(value)) return 'A fault must be a JSON object';
  if (typeof value.kind !== 'string' || !FAULT_KINDS.has(value.kind)) return `Unknown fault kind; use one of ${[...FAULT_KINDS].join(', ')}`;
  if ((value.kind === 'status' || value.kind === 'html') && (typeof value.status !== 'number' || value.status < 100 || value.status > 599))
    return 'A status or html fault needs a status between 100 and 599';
  if (value.kind === 'cut-stream' && (typeof value.afterChunks !== 'number' || value.afterChunks < 0)) return 'A cut-stream fault needs afterChunks >= 0';
  if (value.times !== undefined && (typeof value.times !== 'number' || !Number.isInteger(value.times) || value.times === 0 || value.times < -1)) return 'times must be a positive integer or -1';
  return undefined;
}

const statusMessages: Record<number, string> = {
  400: 'Bad request',
  401: 'Invalid API key',
  402: 'Quota exceeded',
  403: 'Region not supported',
  404: 'Not found',
  408: 'Request timeout',
  409: 'Conflict',
  429: 'Concurrency limit reached for requests',
  500: 'Internal server error',
  502: 'Bad gateway',
  503: 'Engine overloaded',
  504: 'Gateway timeout',
  524: 'A timeout occurred',
};

function statusMessage(status: number): string {
  return statusMessages[status] ?? `Emulated failure with status ${status}`;
}

function htmlPage(status: number): string {
  const title = `${status}: ${statusMessage(status)}`;
  return `<!DOCTYPE html>\n<html lang="en">\n<head><meta charset="utf-8"><title>${title}</title></head>\n<body>\n<h1>${title}</h1>\n<p>The origin web server did not answer in time. Please try again in a few minutes.</p>\n<hr><p>proxy</p>\n</body>\n</html>\n`;
}

/**
 * Answers a request with its fault. Returns false for `cut-stream`, which the chat handler applies
 * itself once it has started streaming.
 */
export function respondWithFault(res: ServerResponse, api: ApiName, fault: Fault, random: Prng): boolean {
  switch (fault.kind) {
    case 'status': {
      const headers: Record<string, string> = {};
      if (fault.retryAfter !== undefined) headers['retry-after'] = String(fault.retryAfter);
      const message = statusMessage(fault.status);
      const kind = fault.body ?? 'json-error';
      if (kind === 'empty') {
        res.writeHead(fault.status, { ...headers, 'content-length': '0' });
        res.end();
        return true;
      }
      const body = kind === 'detail-string' || api === 'training' ? { detail: message } : inferenceErrorBody(fault.status, message);
      res.writeHead(fault.status, { ...headers, 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
      return true;
    }
    case 'html':
      res.writeHead(fault.status, { 'content-type': 'text/html; charset=utf-8' });
      res.end(htmlPage(fault.status));
      return true;
    case 'truncated-json': {
      const whole = JSON.stringify({ object: 'list', data: [{ id: random.uuid(), step: 1, metrics: { loss: 0.52, reward: 0.31 } }], first_id: '', last_id: '', has_more: false });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(whole.slice(0, Math.floor(whole.length / 2)));
      return true;
    }
    case 'garbage': {
      // Starts with bytes that can never begin JSON (nor valid UTF-8).
      const bytes = Buffer.alloc(64, 0);
      bytes[0] = 0xff;
      bytes[1] = 0xfe;
      for (let index = 2; index < bytes.length; index++) bytes[index] = random.int(0, 255);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(bytes);
      return true;
    }
    case 'reset':
      res.socket?.destroy();
      return true;
    case 'cut-stream':
      return false;
  }
}
