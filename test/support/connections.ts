/**
 * The connections undici begins, seen through its diagnostics channel, which announces each one
 * before it connects: a test can prove that nothing was even tried towards a host.
 */
import * as assert from 'node:assert/strict';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';

export interface Connection {
  /** The host name alone, as in `127.0.0.1`. */
  hostname: string;
  /** The host name with its port, as in `127.0.0.1:8080`. */
  host: string;
}

export interface WatchedConnections {
  /** Every connection begun since watching began, in order. */
  seen: Connection[];
  stop(): void;
}

/** Watches the connections undici begins from now on, until `stop()`. */
export function watchConnections(): WatchedConnections {
  const seen: Connection[] = [];
  const onConnect = (message: unknown) => {
    const params = (message as { connectParams?: { hostname?: string; host?: string } }).connectParams;
    seen.push({ hostname: params?.hostname ?? params?.host ?? '?', host: params?.host ?? params?.hostname ?? '?' });
  };
  subscribe('undici:client:beforeConnect', onConnect);
  return { seen, stop: () => unsubscribe('undici:client:beforeConnect', onConnect) };
}

/** Connections were made to this machine (127.0.0.1), and to no other. */
export function assertOnlyThisMachine(connections: WatchedConnections): void {
  const hostnames = connections.seen.map((connection) => connection.hostname);
  assert.ok(hostnames.includes('127.0.0.1'), `connections seen: ${JSON.stringify(hostnames)}`);
  assert.deepEqual(
    hostnames.filter((hostname) => hostname !== '127.0.0.1'),
    [],
    'connections to other machines',
  );
}
