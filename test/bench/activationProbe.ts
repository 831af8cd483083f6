/**
 * Run in a fresh process by the activation suite: installs a stand-in `vscode` module, loads the
 * extension bundle, calls activate() and prints the timings as one JSON line.
 */
import { readFileSync } from 'node:fs';
import Module from 'node:module';
import { performance } from 'node:perf_hooks';
import { createVscodeStandIn, standInContext } from './vscodeStandIn';

const [extensionPath, namesFile] = process.argv.slice(2);
const standIn = createVscodeStandIn(JSON.parse(readFileSync(namesFile, 'utf8')) as string[]);
const moduleInternals = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
const originalLoad = moduleInternals._load;
moduleInternals._load = function load(request: string, ...rest: unknown[]) {
  return request === 'vscode' ? standIn : originalLoad.call(this, request, ...rest);
};

// Collect the harness's own garbage first, so a collection it caused is not billed to the extension.
(globalThis as { gc?: () => void }).gc?.();
const loadStart = performance.now();
const extension = require(extensionPath) as { activate(context: unknown): unknown };
const loadMs = performance.now() - loadStart;
const activateStart = performance.now();
extension.activate(standInContext(extensionPath));
const activateMs = performance.now() - activateStart;
const networkLoaded = Object.keys(require.cache).some((file) => /[\\/]network\.js$|[\\/]undici[\\/]/.test(file));
console.log(JSON.stringify({ loadMs, activateMs, networkLoaded }));
process.exit(0);
