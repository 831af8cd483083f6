/**
 * For the redaction fault cases: hostile servers on 127.0.0.1, and the search for any 8 characters
 * in a row of a secret in what a person would read, raw or once decoded (URL or JSON escapes).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { survivingPiece } from '../../unit/platform/client/support/keys';

export interface HostileServer {
  /** http://127.0.0.1:<port> */
  origin: string;
  /** Requests seen, with their headers. */
  requests: Array<{ method: string; url: string; headers: IncomingMessage['headers']; body: string }>;
  close(): Promise<void>;
}

export async function hostileServer(answer: (request: HostileServer['requests'][number], response: ServerResponse) => void): Promise<HostileServer> {
  const requests: HostileServer['requests'] = [];
  const server = createServer((incoming, response) => {
    const parts: Buffer[] = [];
    incoming.on('data', (part: Buffer) => parts.push(part));
    incoming.on('end', () => {
      const request = { method: incoming.method ?? 'GET', url: incoming.url ?? '/', headers: incoming.headers, body: Buffer.concat(parts).toString('utf8') };
      requests.push(request);
      answer(request, response);
    });
  });
  server.keepAliveTimeout = 500;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

const percentDecoded = (text: string): string => text.replace(/%(?:25)*([0-9a-f]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
const backslashDecoded = (text: string): string => text.replace(/\\+u([0-9a-f]{4})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))).replace(/\\+(.)/g, '$1');

/**
 * The first place any of `texts` shows 8 characters in a row of `secret`, read as it is, URL-decoded
 * or with JSON escapes undone; undefined when none does.
 */
export function leakOf(texts: Record<string, string>, secret: string): string | undefined {
  for (const [where, text] of Object.entries(texts)) {
    for (const [how, view] of [
      ['as is', text],
      ['URL-decoded', percentDecoded(text)],
      ['unescaped', backslashDecoded(text)],
    ] as const) {
      const piece = survivingPiece(view, secret);
      if (piece !== undefined)
        return `${where} (${how}) shows "${piece}": ${JSON.stringify(text.length > 400 ? `…${text.slice(Math.max(0, text.indexOf(piece) - 150), text.indexOf(piece) + 150)}…` : text)}`;
    }
  }
  return undefined;
}

/** Base64 of `user:secret`, as a Basic Authorization header carries it. */
export function basicOf(user: string, secret: string): string {
  return Buffer.from(`${user}:${secret}`, 'utf8').toString('base64');
}
