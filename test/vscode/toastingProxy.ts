/**
 * A pass-through proxy in front of the demo's code-server, so that its notifications pop up as
 * they do in a person's VS Code.
 *
 * code-server loads an extension from source (the development payload, which the demo needs so
 * that RL Studio runs in ExtensionMode.Development and may read the demo's seed) only with its
 * automation driver on, and the same switch makes the workbench keep every notification in the
 * Notifications list without showing it: failures, follow-up buttons and "started" messages would
 * seem not to happen. This proxy forwards every request and WebSocket unchanged but one: in the
 * workbench script it removes the driver's condition from the single place that decides whether a
 * toast shows. Everything else the driver does stays as it is.
 *
 * The patch is checked, not assumed: `scriptServed` says whether the script had the expected code,
 * and the demo says so when a newer code-server no longer has it.
 */
import { request as httpRequest, createServer, type IncomingMessage, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';

/** The workbench's toast guard, as code-server 4.139 minifies it, and the same without the driver's condition. */
const toastGuard = '!this.isNotificationsCenterVisible&&!this.environmentService.enableSmokeTestDriver&&';
const toastGuardWithoutDriver = '!this.isNotificationsCenterVisible&&';
const workbenchScriptPath = /\/out\/vs\/code\/browser\/workbench\/workbench\.js$/;
/** The workbench script is some 15 MB: anything far larger is not it, and is passed on untouched. */
const maxPatchedBytes = 64 * 1024 * 1024;

export interface ToastingProxy {
  /** Settles when the workbench script is first served: whether it had the guard, and so now shows toasts. */
  readonly scriptServed: Promise<boolean>;
  close(): Promise<void>;
}

/**
 * Listens on 127.0.0.1:`port` and forwards to code-server on 127.0.0.1:`targetPort`. The Host header
 * is passed unchanged, so the workbench's remote authority is the proxy's address.
 */
export async function startToastingProxy(port: number, targetPort: number): Promise<ToastingProxy> {
  let served: (toastsShown: boolean) => void = () => undefined;
  const scriptServed = new Promise<boolean>((resolve) => (served = resolve));
  const sockets = new Set<Socket>();
  const server: Server = createServer((incoming, outgoing) => {
    const path = new URL(incoming.url ?? '/', 'http://proxy').pathname;
    const patch = incoming.method === 'GET' && workbenchScriptPath.test(path);
    const headers = { ...incoming.headers };
    if (patch) {
      // Plain text to patch, and never a 304 for a copy cached before the patch.
      headers['accept-encoding'] = 'identity';
      delete headers['if-none-match'];
      delete headers['if-modified-since'];
    }
    const upstream = httpRequest({ host: '127.0.0.1', port: targetPort, method: incoming.method, path: incoming.url, headers }, (response) => {
      const length = Number(response.headers['content-length'] ?? 0);
      // A compressed answer (a server that ignored the request for plain text) is passed on untouched.
      const encoded = (response.headers['content-encoding'] ?? 'identity') !== 'identity';
      if (!patch || response.statusCode !== 200 || length > maxPatchedBytes || encoded) {
        if (patch && response.statusCode === 200) served(false);
        const responseHeaders = { ...response.headers };
        // The page itself: drop any workbench script an earlier, unpatched start left in the cache.
        if (path === '/' && response.statusCode === 200) responseHeaders['clear-site-data'] = '"cache"';
        outgoing.writeHead(response.statusCode ?? 502, responseHeaders);
        response.pipe(outgoing);
        return;
      }
      readAll(response, maxPatchedBytes)
        .then((body) => {
          const script = body.toString('utf8');
          const toastsShown = script.includes(toastGuard);
          served(toastsShown);
          const patched = Buffer.from(toastsShown ? script.replace(toastGuard, toastGuardWithoutDriver) : script, 'utf8');
          const { etag: _etag, 'last-modified': _modified, ...rest } = response.headers;
          outgoing.writeHead(200, { ...rest, 'content-length': String(patched.length), 'cache-control': 'no-store' });
          outgoing.end(patched);
        })
        .catch((error: unknown) => outgoing.destroy(error as Error));
    });
    upstream.on('error', () => {
      if (!outgoing.headersSent) outgoing.writeHead(502, { 'content-type': 'text/plain' });
      outgoing.end('code-server did not answer');
    });
    incoming.pipe(upstream);
  });
  // WebSockets (the remote connection and the extension host): the upgrade request is written to
  // code-server as it came, and then both sockets are joined.
  server.on('upgrade', (incoming: IncomingMessage, client: Socket, head: Buffer) => {
    const target = connect(targetPort, '127.0.0.1', () => {
      const lines = [`${incoming.method} ${incoming.url} HTTP/${incoming.httpVersion}`];
      for (let index = 0; index < incoming.rawHeaders.length; index += 2) lines.push(`${incoming.rawHeaders[index]}: ${incoming.rawHeaders[index + 1]}`);
      target.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length) target.write(head);
      target.pipe(client);
      client.pipe(target);
    });
    for (const socket of [client, target]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        target.destroy();
      });
    }
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    scriptServed,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

async function readAll(stream: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw new Error('the workbench script is larger than expected');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
