/**
 * Run in a fresh process by the activation suite (and the activation unit test): installs a
 * stand-in `vscode` module, loads the extension bundle, calls activate() and prints one JSON line:
 * the timings, the other bundles of dist/ that got loaded, the commands activate() registered and
 * what it returned.
 */
import { readFileSync } from 'node:fs';
import Module from 'node:module';
import { basename, dirname } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createVscodeStandIn, standInContext } from './vscodeStandIn';

const [extensionPath, namesFile] = process.argv.slice(2);
const commands: string[] = [];
const standIn = createVscodeStandIn(JSON.parse(readFileSync(namesFile, 'utf8')) as string[], (path, args) => {
  if (path === 'vscode.commands.registerCommand' && typeof args[0] === 'string') commands.push(args[0]);
});
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
// A normal install (the stand-in's context has no test mode): activate() must hand nothing out.
const exported = extension.activate(standInContext(extensionPath));
const activateMs = performance.now() - activateStart;
const loadedFiles = Object.keys(require.cache);
const networkLoaded = loadedFiles.some((file) => /[\\/]network\.js$|[\\/]undici[\\/]/.test(file));
const distFolder = dirname(extensionPath);
const bundlesLoaded = loadedFiles.filter((file) => dirname(file) === distFolder && file !== extensionPath).map((file) => basename(file));
console.log(JSON.stringify({ loadMs, activateMs, networkLoaded, bundlesLoaded, commands, exported: exported === undefined ? 'nothing' : typeof exported }));
process.exit(0);
