/**
 * Reads an answer body with a ceiling. A server (or anything between it and the extension) can
 * send an answer of any size; the extension host has one heap shared by every extension, so no body
 * is ever buffered past its cap. Past the cap, reading stops and the body is destroyed, which closes
 * the socket instead of draining the rest.
 */
import { finished, type Readable } from 'node:stream';

export interface CappedBytes {
  bytes: Uint8Array;
  /** False when the body was longer than the cap (and `bytes` holds at most the cap). */
  complete: boolean;
}

export interface CapOptions {
  /**
   * Give up without reading when Content-Length already announces more than the cap (for answers
   * that are useless cut short). When false, the first `limit` bytes are still read.
   */
  refuseAnnouncedOverflow: boolean;
  /** The Content-Length header, when the server sent one. */
  contentLength?: string | string[];
}

/**
 * Stops reading a body and closes its socket. undici's body turns a destroy before its end into
 * an 'error' event; nobody is left to listen to it here, so it is caught rather than crashing the
 * extension host as an uncaught error.
 */
export function abandonBody(body: Readable): void {
  body.on('error', ignore);
  body.destroy();
}

function ignore(): void {
  // The body is being given up on purpose: its error says nothing new.
}

/**
 * Reads the body through its 'data', 'end', 'error' and 'close' events rather than `for await`: an
 * async iterator (and the finished() it sets up) per body costs more than the rest of a small
 * answer's read. A body that already stopped (ended, failed or destroyed before this read) goes
 * through finished(), which knows every state a stream can be left in.
 */
export function readCapped(body: Readable, limit: number, options: CapOptions): Promise<CappedBytes> {
  const announced = announcedLength(options.contentLength);
  if (options.refuseAnnouncedOverflow && announced !== undefined && announced > limit) {
    abandonBody(body);
    return Promise.resolve({ bytes: new Uint8Array(0), complete: false });
  }
  return new Promise<CappedBytes>((resolve, reject) => {
    const parts: Uint8Array[] = [];
    let total = 0;
    let settled = false;
    const settle = (error: Error | undefined, complete: boolean): void => {
      if (settled) return;
      settled = true;
      stopListening();
      if (error !== undefined) reject(error);
      else resolve({ bytes: concatBytes(parts, total), complete });
    };
    const onData = (part: Uint8Array): void => {
      const room = limit - total;
      if (part.byteLength <= room) {
        parts.push(part);
        total += part.byteLength;
        return;
      }
      if (room > 0) {
        parts.push(part.subarray(0, room));
        total += room;
      }
      settle(undefined, false);
      abandonBody(body);
    };
    const onEnd = (): void => settle(undefined, true);
    const onError = (error: unknown): void => settle(error instanceof Error ? error : new Error('the response body failed'), true);
    const onClose = (): void => settle(prematureClose(), true);
    let stopWatching: (() => void) | undefined;
    const stopListening = (): void => {
      body.off('data', onData);
      body.off('end', onEnd);
      body.off('error', onError);
      body.off('close', onClose);
      stopWatching?.();
    };
    if (body.destroyed || body.readableEnded || body.errored) {
      stopWatching = finished(body, (error) => settle(error ?? undefined, true));
    } else {
      body.on('end', onEnd);
      body.on('error', onError);
      body.on('close', onClose);
    }
    body.on('data', onData);
  });
}

/** What a body that closed before its end (a destroy without an error) fails with, as `for await` reported it. */
function prematureClose(): Error {
  return Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });
}

/** UTF-8 text of the bytes; a leading byte-order mark is dropped, as JSON.parse would reject it. */
export function decodeText(bytes: Uint8Array): string {
  return utf8.decode(bytes);
}

// One for every read: a decode without `stream: true` keeps no state between calls.
const utf8 = new TextDecoder('utf-8');

export function concatBytes(parts: Uint8Array[], total: number): Uint8Array {
  if (parts.length === 1 && parts[0]!.byteLength === total) return parts[0]!;
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.byteLength;
  }
  return bytes;
}

/** 33554432 → "32 MiB", 65536 → "64 KiB", 1500 → "1500 bytes". */
export function describeSize(bytes: number): string {
  const units: [number, string][] = [
    [2 ** 30, 'GiB'],
    [2 ** 20, 'MiB'],
    [2 ** 10, 'KiB'],
  ];
  for (const [size, unit] of units) {
    if (bytes >= size) return `${Number((bytes / size).toFixed(1))} ${unit}`;
  }
  return `${bytes} bytes`;
}

function announcedLength(header: string | string[] | undefined): number | undefined {
  const text = Array.isArray(header) ? header[0] : header;
  if (text === undefined || !/^\s*\d+\s*$/.test(text)) return undefined;
  return Number(text);
}
