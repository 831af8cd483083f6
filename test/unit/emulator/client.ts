/** A tiny fetch wrapper for the emulator's own tests. */
import assert from 'node:assert/strict';
import type { Emulator } from '../../emulator/contract';
import { trajectoryGroup as buildGroup } from '../../support/builders';

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

export interface CallOptions {
  body?: unknown;
  /** Sent as is instead of JSON. */
  rawBody?: string;
  headers?: Record<string, string>;
  /** Leave out the Authorization header. */
  anonymous?: boolean;
}

export async function call(emulator: Emulator, api: 'training' | 'inference' | 'control', method: string, path: string, options: CallOptions = {}): Promise<Answer> {
  const base = api === 'training' ? emulator.trainingUrl : api === 'inference' ? emulator.inferenceUrl : `${emulator.url}/_emulator`;
  const headers: Record<string, string> = { ...options.headers };
  if (!options.anonymous) headers.authorization ??= `Bearer ${emulator.apiKey}`;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  const response = await fetch(base + path, { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

/**
 * Starts streaming a long answer (`/long 500`) once its headers arrived; `ending` tells how reading
 * it ends: 'ended' when the whole answer arrived, 'dropped' when the connection was cut. Slow with
 * a chunk delay set.
 */
export async function readLongStream(emulator: Emulator): Promise<{ ending: Promise<'ended' | 'dropped'> }> {
  const response = await fetch(`${emulator.inferenceUrl}/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${emulator.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'OpenPipe/Qwen3-14B-Instruct', messages: [{ role: 'user', content: '/long 500' }], stream: true }),
  });
  assert.equal(response.status, 200);
  // Wrapped: an async function returning the promise itself would wait for the whole answer.
  return {
    ending: response.text().then(
      () => 'ended' as const,
      () => 'dropped' as const,
    ),
  };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `check` returns a value, or fails after `timeoutMs`. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(10);
  }
}

/** A trajectory group of one answered question, with `metadata` (the emulator reads its instructions there). */
export function trajectoryGroup(metadata: Record<string, unknown> = {}) {
  return buildGroup({ metadata });
}

export interface JobEvent {
  id: string;
  type: string;
  data: Record<string, unknown>;
}

/** Every event of a job, oldest first, read page by page with `after`. */
export async function allEvents(emulator: Emulator, jobId: string, limit = 100): Promise<JobEvent[]> {
  const events: JobEvent[] = [];
  let after = '';
  for (;;) {
    const answer = await call(emulator, 'training', 'GET', `/preview/training-jobs/${jobId}/events?limit=${limit}${after ? `&after=${after}` : ''}`);
    assert.equal(answer.status, 200, answer.text);
    events.push(...answer.json.data);
    if (!answer.json.has_more) return events;
    after = answer.json.last_id;
  }
}
