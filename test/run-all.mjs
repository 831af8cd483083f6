#!/usr/bin/env node
// `npm test`: every check of the project, in order, each ending with one line
// `<stage>: N passed, N failed`, then `total: N passed, N failed`. Exits non-zero when any stage fails.
//
//   npm test -- --only unit            run only these stages (comma-separated or repeated)
//   npm test -- --skip ui-vsix         run all but these
//   npm test -- --only ui              the UI tests against the repository's build (not in the default run)
//   npm test -- --desktop              extension tests in desktop VS Code (@vscode/test-electron)
//                                      instead of code-server; also RL_STUDIO_TEST_RUNNER=electron
//
// Stages that read build output get the build first, and ui-vsix gets the package first, unless
// those are skipped explicitly.
import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join('node_modules', '.bin', name); // run with cwd = root
const vsix = join(root, 'rl-studio.vsix');

const wholeStage = (result) => (result.code === 0 ? { passed: 1, failed: 0 } : { passed: 0, failed: 1 });

function mochaCounts(result) {
  const count = (word) => Number(new RegExp(`^\\s*(\\d+) ${word}`, 'm').exec(result.output)?.[1] ?? 0);
  return { passed: count('passing'), failed: count('failing') };
}

function typeErrors(result) {
  const errors = result.output.split('\n').filter((line) => /error TS\d+/.test(line)).length;
  return result.code === 0 ? { passed: 1, failed: 0 } : { passed: 0, failed: Math.max(errors, 1) };
}

/**
 * One pass for each lint tool that found nothing; for one that did, a failure per problem it counted
 * (ESLint's problems, Prettier's unformatted files, knip's findings), at least one.
 */
function lintCounts(result) {
  const problems = (output) => {
    const eslint = /(\d+) problems? \(/.exec(output);
    if (eslint) return Number(eslint[1]);
    const prettier = /Code style issues found in (\d+) files/.exec(output);
    if (prettier) return Number(prettier[1]);
    const knip = [...output.matchAll(/^(?!Configuration hints)[A-Z][A-Za-z ]+ \((\d+)\)$/gm)];
    return knip.reduce((sum, match) => sum + Number(match[1]), 0);
  };
  const counts = { passed: 0, failed: 0 };
  for (const step of result.steps) {
    if (step.code === 0) counts.passed += 1;
    else counts.failed += Math.max(problems(step.output), 1);
  }
  return counts;
}

/** Reads the `<stage>: N passed, N failed` line the runner printed last. */
const runnerCounts = (stage) => (result) => {
  const lines = [...result.output.matchAll(new RegExp(`^${stage}: (\\d+) passed, (\\d+) failed$`, 'gm'))];
  const last = lines.at(-1);
  return last ? { passed: Number(last[1]), failed: Number(last[2]) } : { passed: 0, failed: 0 };
};

const desktop = process.argv.includes('--desktop') || process.env.RL_STUDIO_TEST_RUNNER === 'electron';

const stages = [
  { name: 'build', command: ['node', 'esbuild.mjs'], counts: wholeStage },
  // TypeScript 7's native compiler (node_modules/.bin/tsc may be TypeScript 6's, which ESLint uses),
  // over each layer: the extension host (no DOM), the webviews (no Node), the tests.
  {
    name: 'typecheck',
    command: ['node', join('node_modules', '@typescript', 'native', 'bin', 'tsc'), '-b', 'tsconfig.host.json', 'tsconfig.webview.json', 'tsconfig.json'],
    counts: typeErrors,
  },
  // ESLint (eslint.config.mjs: promises, `any`, the layers' imports), Prettier (.prettierrc.json) and
  // knip (knip.json: unused files, exports and dependencies); each runs even when one before it failed.
  {
    name: 'lint',
    steps: [[bin('eslint'), '--max-warnings', '0', '.'], [bin('prettier'), '--check', '.'], [bin('knip')]],
    counts: lintCounts,
  },
  // What the browser suites of the unit stage and every real-VS Code stage need: chromium, Node 24
  // and code-server, installed on first use by the same script `npm start` runs (quick when present).
  // It comes before the unit stage, whose page suites drive chromium, so that a machine that never
  // had chromium passes as one that had.
  { name: 'tools', command: ['bash', join('test', 'vscode', 'install.sh')], counts: wholeStage },
  {
    name: 'unit',
    needs: ['build', 'tools'],
    command: [bin('mocha'), '--config', 'test/unit/.mocharc.json', '--reporter', 'spec', '--no-color'],
    counts: mochaCounts,
  },
  // Hostile servers, files, settings and callers, each with its safe outcome asserted (test/fault/).
  {
    name: 'fault',
    needs: ['build'],
    command: [bin('mocha'), '--config', 'test/fault/.mocharc.json', '--reporter', 'spec', '--no-color'],
    counts: mochaCounts,
  },
  {
    name: 'integration',
    needs: ['build', 'tools'],
    command: ['node', 'out/test/vscode/integration.js', ...(desktop ? ['--desktop'] : [])],
    counts: runnerCounts('integration'),
  },
  // The UI tests run by default against the packaged extension (ui-vsix), as users get it; `--only ui`
  // runs them against the repository's build for a quicker edit-and-look loop. Integration tests
  // already load the extension from the repository, so the default run covers both ways of loading.
  { name: 'ui', optional: true, needs: ['build', 'tools'], command: ['node', 'out/test/ui/runner.js', '--stage', 'ui'], counts: runnerCounts('ui') },
  {
    name: 'package',
    needs: ['build'],
    command: ['npm', 'run', '--silent', 'package'],
    counts: (result) => wholeStage({ code: result.code === 0 && freshFile(vsix, result.startedAt) ? 0 : 1 }),
  },
  {
    name: 'ui-vsix',
    needs: ['build', 'tools', 'package'],
    command: ['node', 'out/test/ui/runner.js', '--stage', 'ui-vsix', '--vsix', vsix],
    counts: runnerCounts('ui-vsix'),
  },
];

function freshFile(path, since) {
  return existsSync(path) && statSync(path).mtimeMs >= since - 1000;
}

function listOption(name) {
  const values = [];
  process.argv.forEach((arg, index) => {
    if (arg === `--${name}` && process.argv[index + 1]) values.push(...process.argv[index + 1].split(','));
    else if (arg.startsWith(`--${name}=`)) values.push(...arg.slice(name.length + 3).split(','));
  });
  return values.map((value) => value.trim()).filter(Boolean);
}

function checkArguments() {
  const args = process.argv.slice(2);
  args.forEach((arg, index) => {
    const takesValue = ['--only', '--skip'].includes(args[index - 1] ?? '');
    if (takesValue || arg === '--desktop' || /^--(only|skip)(=|$)/.test(arg)) return;
    console.error(`unknown option ${arg}; options are --only <stages>, --skip <stages>, --desktop`);
    process.exit(2);
  });
}

function selectStages() {
  checkArguments();
  const known = stages.map((stage) => stage.name);
  const only = listOption('only');
  const skip = listOption('skip');
  const unknown = [...only, ...skip].filter((name) => !known.includes(name));
  if (unknown.length) {
    console.error(`unknown stage(s): ${unknown.join(', ')}; stages are ${known.join(', ')}`);
    process.exit(2);
  }
  const chosen = new Set(only.length ? only : stages.filter((stage) => !stage.optional).map((stage) => stage.name));
  for (const name of skip) chosen.delete(name);
  // Prerequisites come along unless skipped on purpose.
  for (const stage of stages) {
    if (!chosen.has(stage.name)) continue;
    for (const need of stage.needs ?? []) if (!skip.includes(need)) chosen.add(need);
  }
  return stages.filter((stage) => chosen.has(stage.name));
}

/** Runs a stage's steps one after the other, all of them whatever each ends with; fails when one did. */
async function runSteps(stage) {
  const steps = [];
  for (const command of stage.steps) steps.push(await run({ name: stage.name, command }));
  const failed = steps.find((step) => step.code !== 0);
  return {
    code: failed ? failed.code : 0,
    output: steps.map((step) => step.output).join(''),
    startedAt: steps[0]?.startedAt ?? Date.now(),
    seconds: steps.reduce((sum, step) => sum + step.seconds, 0),
    steps,
  };
}

const commandLine = (stage) => (stage.steps ? stage.steps.map((step) => step.join(' ')).join('; ') : stage.command.join(' '));

/** Runs a command, echoing its output live, except the stage's own closing line (printed once, here). */
function run(stage) {
  const [command, ...args] = stage.command;
  const ownClosingLine = new RegExp(`^${stage.name}: \\d+ passed, \\d+ failed$`);
  return new Promise((resolve) => {
    const startedAt = Date.now();
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
    let output = '';
    let pending = '';
    child.stdout.on('data', (chunk) => {
      const text = chunk.toString();
      output += text;
      pending += text;
      const lines = pending.split('\n');
      pending = lines.pop();
      for (const line of lines) if (!ownClosingLine.test(line)) process.stdout.write(`${line}\n`);
    });
    child.stderr.on('data', (chunk) => {
      output += chunk.toString();
      process.stderr.write(chunk);
    });
    const finish = (code) => {
      if (pending && !ownClosingLine.test(pending)) process.stdout.write(`${pending}\n`);
      resolve({ code, output, startedAt, seconds: (Date.now() - startedAt) / 1000 });
    };
    child.on('error', (error) => {
      output += String(error);
      console.error(`${stage.name}: could not start ${command}: ${error.message}`);
      finish(127);
    });
    child.on('close', (code, signal) => finish(code ?? (signal ? 128 : 1)));
  });
}

async function main() {
  const failedStages = new Set();
  const total = { passed: 0, failed: 0 };
  for (const stage of selectStages()) {
    console.log(`\n=== ${stage.name}: ${commandLine(stage)}`);
    const blockedBy = (stage.needs ?? []).filter((need) => failedStages.has(need));
    let counts;
    if (blockedBy.length) {
      console.log(`${stage.name} not run: ${blockedBy.join(', ')} failed`);
      counts = { passed: 0, failed: 1 };
    } else {
      const result = stage.steps ? await runSteps(stage) : await run(stage);
      counts = stage.counts(result);
      // A command that failed without reporting a failure still failed (a crash, a missing file).
      if (result.code !== 0 && counts.failed === 0) {
        console.log(`${stage.name} exited with code ${result.code}`);
        counts = { passed: counts.passed, failed: 1 };
      }
      console.log(`(${stage.name} took ${result.seconds.toFixed(1)}s)`);
    }
    if (counts.failed > 0) failedStages.add(stage.name);
    total.passed += counts.passed;
    total.failed += counts.failed;
    console.log(`${stage.name}: ${counts.passed} passed, ${counts.failed} failed`);
  }
  console.log(`\ntotal: ${total.passed} passed, ${total.failed} failed`);
  process.exitCode = total.failed > 0 ? 1 : 0;
}

await main();
