import { createServer } from 'node:net';

/** A TCP port on 127.0.0.1 that was free a moment ago (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('no port assigned'))));
    });
  });
}

/** Whether nothing listens on a port of 127.0.0.1 right now. */
export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * The wanted port when it is free, otherwise one the OS picks, and whether the wanted one was busy
 * (so the caller can say which port it took instead).
 */
export async function preferredPort(wanted: number): Promise<{ port: number; wantedWasBusy: boolean }> {
  if (await portIsFree(wanted)) return { port: wanted, wantedWasBusy: false };
  return { port: await freePort(), wantedWasBusy: true };
}
