/**
 * Run in a fresh process by the network first-load suite: loads a network stack and makes one
 * request with it, as the sidebar's first health check does, and prints one JSON line with the time
 * to load it and the time until the answer was read, both from the start of the load.
 *   node networkProbe.js bundle <path of a network bundle> <base address>
 *   node networkProbe.js undici <unused> <base address>     (bare undici from node_modules)
 */
import { existsSync } from 'node:fs';
import Module from 'node:module';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createVscodeStandIn, vscodeTopLevelNames } from './vscodeStandIn';

/**
 * dist/network.js takes the platform modules activation runs from dist/extension.js, which is
 * loaded long before the first request: it is loaded here too, untimed, with a stand-in `vscode`.
 */
function loadActivationBeside(bundlePath: string): void {
  const extension = join(dirname(bundlePath), 'extension.js');
  if (!existsSync(extension)) return;
  const standIn = createVscodeStandIn(vscodeTopLevelNames());
  const moduleInternals = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
  const originalLoad = moduleInternals._load;
  moduleInternals._load = function load(request: string, ...rest: unknown[]) {
    return request === 'vscode' ? standIn : originalLoad.call(this, request, ...rest);
  };
  require(extension);
}

interface NetworkBundle {
  PlatformClient: new (options: { trainingUrl: string; inferenceUrl: string; credentials: { getApiKey(): Promise<string> } }) => {
    training: { health(): Promise<unknown> };
    close(): Promise<void>;
  };
}

interface BareUndici {
  Agent: new () => { request(options: { origin: string; path: string; method: string; headers?: Record<string, string> }): Promise<{ body: { json(): Promise<unknown> } }>; close(): Promise<void> };
}

async function main(): Promise<void> {
  const [kind, bundlePath, base] = process.argv.slice(2) as [string, string, string];
  if (kind === 'bundle') loadActivationBeside(bundlePath);
  (globalThis as { gc?: () => void }).gc?.();
  const started = performance.now();
  let loadMs: number;
  if (kind === 'undici') {
    const { Agent } = require('undici') as BareUndici;
    loadMs = performance.now() - started;
    const agent = new Agent();
    const url = new URL(`${base}/training/v1/health`);
    const response = await agent.request({ origin: url.origin, path: url.pathname, method: 'GET', headers: { authorization: 'Bearer bench-key' } });
    await response.body.json();
    const answeredMs = performance.now() - started;
    await agent.close();
    console.log(JSON.stringify({ loadMs, answeredMs }));
    return;
  }
  const { PlatformClient } = require(bundlePath) as NetworkBundle;
  loadMs = performance.now() - started;
  const client = new PlatformClient({ trainingUrl: `${base}/training/v1`, inferenceUrl: `${base}/inference/v1`, credentials: { getApiKey: async () => 'bench-key' } });
  await client.training.health();
  const answeredMs = performance.now() - started;
  await client.close();
  console.log(JSON.stringify({ loadMs, answeredMs }));
}

void main().then(() => process.exit(0));
