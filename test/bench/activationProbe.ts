/**
 * Run in a fresh process by the activation suite: installs a stand-in `vscode` module, loads the
 * extension bundle, calls activate() and prints the timings as one JSON line.
 */
import Module from 'node:module';
import { performance } from 'node:perf_hooks';
import { createVscodeStandIn, standInContext } from './vscodeStandIn';

const extensionPath = process.argv[2];
const standIn = createVscodeStandIn();
const moduleInternals = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
const originalLoad = moduleInternals._load;
moduleInternals._load = function load(request: string, ...rest: unknown[]) {
  return request === 'vscode' ? standIn : originalLoad.call(this, request, ...rest);
};

const loadStart = performance.now();
const extension = require(extensionPath) as { activate(context: unknown): unknown };
const loadMs = performance.now() - loadStart;
const activateStart = performance.now();
extension.activate(standInContext(extensionPath));
const activateMs = performance.now() - activateStart;
const networkLoaded = Object.keys(require.cache).some((file) => /[\\/]network\.js$|[\\/]undici[\\/]/.test(file));
console.log(JSON.stringify({ loadMs, activateMs, networkLoaded }));
process.exit(0);
