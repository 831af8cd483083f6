#!/usr/bin/env node
// Smoke test of `npm start` as a person meets it: starts it in the background with the demo's
// default ports (8787, 8788) already taken, waits for the addresses it prints, checks that the
// emulator answers and that the workbench page is served, that the banner says what is ready and
// asks for no key or id, that the workbench loads RL Studio as an extension under development (the
// only way the demo's seed is read) and that the seed file is private while the demo runs, stops it
// the way Ctrl-C does, and checks that nothing of it is left: no process of the run (code-server, its
// extension hosts, the emulator, any chromium), no seed file and nothing listening on its ports.
// (test/vscode/demoScreenshot.ts looks at the workbench itself.) Ends with one line
// `start-smoke: N passed, N failed`; exits non-zero when a check fails.
//
//   node test/vscode/startSmoke.mjs [command]     default command: npm start
//   RL_STUDIO_SMOKE_TIMEOUT_SECONDS                how long to wait for the addresses (default 600:
//                                                  a first run installs code-server first)
//
// Processes "of the run" are found by a marker variable in their environment, which every process
// the command starts inherits (code-server passes its environment on to its extension hosts).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect, createServer } from 'node:net';

const command = process.argv.slice(2).join(' ') || 'npm start';
const timeoutMs = (Number(process.env.RL_STUDIO_SMOKE_TIMEOUT_SECONDS) || 600) * 1000;
const defaultPorts = [8787, 8788]; // the emulator's and code-server's, in test/vscode/demo.ts
const marker = `RL_STUDIO_SMOKE_RUN=${randomBytes(8).toString('hex')}`;
const stage = 'start-smoke';
const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
// Where the demo keeps its seed file while it runs (test/vscode/demo.ts, paths.ts).
const demoStateDir = join(process.env.RL_STUDIO_CACHE || join(homedir(), '.cache', 'rl-studio'), 'demo');

/** The demo's seed files present now. */
function seedFiles() {
  return existsSync(demoStateDir) ? readdirSync(demoStateDir).filter((name) => /^seed-.*\.json$/.test(name)) : [];
}

const results = { passed: 0, failed: 0 };
function check(ok, what, detail = '') {
  results[ok ? 'passed' : 'failed']++;
  console.log(`${stage}: ${ok ? 'ok  ' : 'FAIL'} ${what}${detail ? ` (${detail})` : ''}`);
  return ok;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Listens on a port of 127.0.0.1 so the demo finds it taken; undefined when something else already has it. */
function holdPort(port) {
  return new Promise((resolve) => {
    const server = createServer((socket) => socket.destroy());
    server.once('error', () => resolve(undefined));
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

/** Whether something accepts connections on a port of 127.0.0.1. */
function listening(port) {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.setTimeout(2000);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('timeout', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

/** Processes that carry this run's marker, as `pid name: command line`. */
function processesOfRun() {
  const found = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (!readFileSync(`/proc/${entry}/environ`, 'latin1').split('\0').includes(marker)) continue;
      const name = readFileSync(`/proc/${entry}/comm`, 'utf8').trim();
      const commandLine = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ').trim();
      found.push({ pid: Number(entry), text: `${entry} ${name}: ${commandLine.slice(0, 160)}` });
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}

async function waitFor(condition, ms) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await sleep(250);
  }
  return condition();
}

/** Starts the command in a process group of its own and collects what it prints. */
function startCommand() {
  const env = { ...process.env, RL_STUDIO_DEMO: 'web', [marker.split('=')[0]]: marker.split('=')[1] };
  delete env.RL_STUDIO_EMULATOR_PORT;
  delete env.RL_STUDIO_DEMO_PORT;
  const child = spawn('bash', ['-c', command], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const run = { child, output: '', exited: undefined, seedsBefore: seedFiles() };
  const echo = (chunk) => {
    const text = chunk.toString();
    run.output += text;
    process.stdout.write(text.replace(/^(?=.)/gm, '  | '));
  };
  child.stdout.on('data', echo);
  child.stderr.on('data', echo);
  run.exit = new Promise((resolve) => child.once('exit', (code, signal) => resolve((run.exited = code ?? signal))));
  return run;
}

/** The addresses the demo prints in its banner (see test/vscode/demo.ts). */
function printedAddresses(output) {
  const emulator = /emulator:\s+(http:\/\/127\.0\.0\.1:(\d+))\/training\/v1/.exec(output);
  const workbench = /VS Code:\s+open (http:\/\/127\.0\.0\.1:(\d+)\/\S*) in a browser/.exec(output);
  if (!emulator || !workbench) return undefined;
  return { emulatorBase: emulator[1], emulatorPort: Number(emulator[2]), workbenchUrl: workbench[1], workbenchPort: Number(workbench[2]) };
}

async function fetchText(url) {
  const response = await fetch(url, { signal: AbortSignal.timeout(30_000) });
  return { status: response.status, type: response.headers.get('content-type') ?? '', body: await response.text() };
}

async function checkRunningDemo(run, held) {
  const addresses = printedAddresses(run.output);
  for (const port of held) {
    check(new RegExp(`Port ${port} is in use, so .* uses port \\d+ instead`).test(run.output), `says that the taken port ${port} was replaced`);
  }
  check(!held.includes(addresses.emulatorPort), `the printed emulator address avoids the taken ports`, addresses.emulatorBase);
  check(!held.includes(addresses.workbenchPort), `the printed workbench address avoids the taken ports`, `port ${addresses.workbenchPort}`);
  try {
    const health = await fetchText(`${addresses.emulatorBase}/training/v1/health`);
    check(health.status === 200, 'the emulator answers at the printed address', `HTTP ${health.status}`);
  } catch (error) {
    check(false, 'the emulator answers at the printed address', String(error));
  }
  check(/ready:\s+signed in/.test(run.output) && /a running, a failed and a succeeded job/.test(run.output), 'the banner says what is ready');
  check(!/API key:|Add Model by ID|Add Job by ID|add model:|add jobs:/.test(run.output), 'the banner asks for no key and no id');
  const payload = JSON.parse(new URL(addresses.workbenchUrl).searchParams.get('payload') ?? '[]');
  const development = payload.find(([name]) => name === 'extensionDevelopmentPath')?.[1] ?? '';
  check(development.endsWith(repoRoot), 'the workbench loads RL Studio from the repository as an extension under development', development);
  const newSeeds = seedFiles().filter((name) => !run.seedsBefore.includes(name));
  const privateSeed = newSeeds.length === 1 && (statSync(join(demoStateDir, newSeeds[0])).mode & 0o077) === 0;
  check(privateSeed, 'one seed file, readable by this user only, while the demo runs', newSeeds.join(', '));
  run.seedFiles = newSeeds;
  try {
    const page = await fetchText(addresses.workbenchUrl);
    check(page.status === 200, 'the printed workbench address answers 200', `HTTP ${page.status}`);
    // The workbench page carries its configuration and loads the workbench bundle.
    const isWorkbench = page.type.includes('text/html') && page.body.includes('vscode-workbench-web-configuration') && /workbench[^"']*\.js/.test(page.body);
    check(isWorkbench, 'it serves the VS Code workbench page', `${page.type}, ${page.body.length} bytes`);
  } catch (error) {
    check(false, 'the printed workbench address answers', String(error));
  }
  return addresses;
}

async function stopAndCheckNothingLeft(run, addresses) {
  // Ctrl-C in a terminal signals the whole foreground process group.
  if (run.exited === undefined) {
    try {
      process.kill(-run.child.pid, 'SIGINT');
    } catch {
      // already gone
    }
  }
  const stopped = await waitFor(() => run.exited !== undefined, 30_000);
  check(stopped, 'it stops on Ctrl-C (SIGINT to its process group)', stopped ? `exit ${run.exited}` : 'still running after 30 s');
  const noneLeft = await waitFor(() => processesOfRun().length === 0, 10_000);
  const left = processesOfRun();
  check(noneLeft, 'no process of the run is left (code-server, extension hosts, emulator, chromium)', left.map((p) => p.text).join('; '));
  const seedsLeft = (run.seedFiles ?? []).filter((name) => existsSync(join(demoStateDir, name)));
  check(seedsLeft.length === 0, 'the seed file is gone', seedsLeft.join(', '));
  if (addresses) {
    for (const [what, port] of [
      ['emulator', addresses.emulatorPort],
      ['code-server', addresses.workbenchPort],
    ]) {
      const closed = await waitFor(async () => !(await listening(port)), 5000);
      check(closed, `nothing listens on the ${what}'s port ${port} any more`);
    }
  }
  // Whatever the checks found, nothing of this run may outlive it (on CI or on a desktop).
  for (const { pid } of processesOfRun()) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
}

async function main() {
  const held = [];
  const holders = [];
  for (const port of defaultPorts) {
    const holder = await holdPort(port);
    if (holder) holders.push(holder);
    held.push(port); // taken either way: by us, or by something else on this machine
  }
  console.log(`${stage}: running \`${command}\` with ports ${held.join(' and ')} taken; waiting up to ${timeoutMs / 1000}s for its addresses`);
  const started = Date.now();
  const run = startCommand();
  const ready = await waitFor(() => printedAddresses(run.output) !== undefined || run.exited !== undefined, timeoutMs);
  let addresses;
  if (check(ready && printedAddresses(run.output) !== undefined, 'it prints the emulator and workbench addresses', ready ? `after ${Math.round((Date.now() - started) / 1000)}s` : 'timed out')) {
    addresses = await checkRunningDemo(run, held);
  } else if (run.exited !== undefined) {
    console.log(`${stage}: the command ended with ${run.exited} before printing its addresses`);
  }
  await stopAndCheckNothingLeft(run, addresses);
  await Promise.all(holders.map((holder) => new Promise((resolve) => holder.close(resolve))));
  console.log(`${stage}: ${results.passed} passed, ${results.failed} failed`);
  process.exitCode = results.failed > 0 ? 1 : 0;
}

await main();
