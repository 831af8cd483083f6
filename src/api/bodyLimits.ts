/**
 * Reads an answer body with a ceiling. A server (or anything between it and the extension) can
 * send an answer of any size; the extension host has one heap shared by every extension, so no body
 * is ever buffered past its cap. Past the cap, reading stops and the body is destroyed, which closes
 * the socket instead of draining the rest.
 */
import type { Readable } from 'node:stream';

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

export async function readCapped(body: Readable, limit: number, options: CapOptions): Promise<CappedBytes> {
  const announced = announcedLength(options.contentLength);
  if (options.refuseAnnouncedOverflow && announced !== undefined && announced > limit) {
    abandonBody(body);
    return { bytes: new Uint8Array(0), complete: false };
  }
  const parts: Uint8Array[] = [];
  let total = 0;
  for await (const part of body as AsyncIterable<Uint8Array>) {
    const room = limit - total;
    if (part.byteLength > room) {
      if (room > 0) {
        parts.push(part.subarray(0, room));
        total += room;
      }
      abandonBody(body);
      return { bytes: concatBytes(parts, total), complete: false };
    }
    parts.push(part);
    total += part.byteLength;
  }
  return { bytes: concatBytes(parts, total), complete: true };
}

/** UTF-8 text of the bytes; a leading byte-order mark is dropped, as JSON.parse would reject it. */
export function decodeText(bytes: Uint8Array): string {
  return new TextDecoder('utf-8').decode(bytes);
}

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
