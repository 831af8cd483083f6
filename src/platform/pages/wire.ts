/**
 * The wire format every webview page shares with its panel in the extension host, whatever the
 * page. Three kinds of messages travel both ways: a request (id, method, params) that always gets
 * exactly one reply (the result, or an error), the reply itself, and an event (no reply). Each page
 * names its methods and events in its own protocol.ts; src/platform/pages/rpc.ts carries them.
 */

/** A page's methods by name: what each takes and what its reply carries. */
export type MethodMap = Record<string, { params: unknown; result: unknown }>;

/** The methods of a side that answers no requests. */
export type NoMethods = Record<never, never>;

export interface RequestMessage {
  kind: 'request';
  id: number;
  method: string;
  params: unknown;
}

export type ReplyMessage = { kind: 'reply'; id: number; ok: true; result: unknown } | { kind: 'reply'; id: number; ok: false; error: { message: string; code?: string } };

export interface EventMessage {
  kind: 'event';
  event: unknown;
}

export type WireMessage = RequestMessage | ReplyMessage | EventMessage;

/** A structurally valid wire message, or undefined: messages from the other side are not trusted blindly. */
export function parseWireMessage(raw: unknown): WireMessage | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const message = raw as Record<string, unknown>;
  const id = ownValue(message, 'id');
  const validId = typeof id === 'number' && Number.isSafeInteger(id) && id >= 0;
  switch (ownValue(message, 'kind')) {
    case 'request': {
      const method = ownValue(message, 'method');
      if (!validId || typeof method !== 'string') return undefined;
      return { kind: 'request', id: id as number, method, params: ownValue(message, 'params') };
    }
    case 'reply': {
      const ok = ownValue(message, 'ok');
      if (!validId || typeof ok !== 'boolean') return undefined;
      if (ok) return { kind: 'reply', id: id as number, ok: true, result: ownValue(message, 'result') };
      return { kind: 'reply', id: id as number, ok: false, error: parseErrorBody(ownValue(message, 'error')) };
    }
    case 'event': {
      const event = ownValue(message, 'event');
      if (typeof event !== 'object' || event === null) return undefined;
      return { kind: 'event', event };
    }
    default:
      return undefined;
  }
}

function parseErrorBody(raw: unknown): { message: string; code?: string } {
  if (typeof raw === 'object' && raw !== null) {
    const body = raw as Record<string, unknown>;
    const text = ownValue(body, 'message');
    const code = ownValue(body, 'code');
    const message = typeof text === 'string' ? text.slice(0, 2_000) : 'the request failed';
    return typeof code === 'string' ? { message, code: code.slice(0, 100) } : { message };
  }
  return { message: 'the request failed' };
}

/** Thrown by a request handler for invalid parameters; the caller receives it as an error reply. */
export class ProtocolError extends Error {
  constructor(
    message: string,
    readonly code = 'invalid-params',
  ) {
    super(message);
    this.name = 'ProtocolError';
  }
}

/** A property the object has itself: never one inherited from Object.prototype (`constructor`, a polluted key). */
export function ownValue(record: Record<string, unknown>, name: string): unknown {
  return Object.prototype.hasOwnProperty.call(record, name) ? record[name] : undefined;
}

/**
 * Checks for the untyped params of incoming requests. The other side is not trusted: only own
 * properties are read, every string has a length limit, and the values returned are fresh values
 * built from checked fields, never the objects that arrived. A page adds its own checks on top.
 */
export const params = {
  object(raw: unknown): Record<string, unknown> {
    if (raw === undefined || raw === null) return {};
    if (typeof raw !== 'object' || Array.isArray(raw)) throw new ProtocolError('params must be an object');
    return raw as Record<string, unknown>;
  },
  /** `label` names the value for a person ("the message") in the error shown to them. */
  string(raw: unknown, name: string, maxLength: number, label = name): string {
    const value = ownValue(params.object(raw), name);
    if (typeof value !== 'string') throw new ProtocolError(`${name} must be a string`);
    if (value.length > maxLength) throw new ProtocolError(tooLong(label, value.length, maxLength), 'too-long');
    return value;
  },
  /** A whole number from `min` to `max`. */
  integer(raw: unknown, name: string, min: number, max: number): number {
    const value = ownValue(params.object(raw), name);
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) throw new ProtocolError(`${name} must be a whole number from ${min} to ${max}`);
    return value;
  },
  optionalString(raw: unknown, name: string, maxLength: number): string | undefined {
    const value = ownValue(params.object(raw), name);
    if (value === undefined || value === null) return undefined;
    return params.string(raw, name, maxLength);
  },
};

/** "The message is too long (1,200,000 characters; at most 1,000,000) and was not sent." reads as what happened. */
export function tooLong(label: string, length: number, maxLength: number): string {
  return `${label} is too long (${length.toLocaleString('en-US')} characters; at most ${maxLength.toLocaleString('en-US')})`;
}

/** A whole number of things (characters, entries): never negative, never NaN. */
export function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}
