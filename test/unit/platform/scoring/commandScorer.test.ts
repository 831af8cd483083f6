import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCommandScorer } from '../../../../src/platform/scoring/commandScorer';
import type { CommandScorerSpec } from '../../../../src/platform/scoring/programScorers';
import { programIdentity } from '../../../../src/platform/scoring/programScorers';
import { sample } from '../../evals/evalFixtures';

describe('command scorer', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'rl-eval-scorer-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** Runs a Node script as the scorer. */
  /** The programs a run may start: the spec given, in `dir`. */
  const allowing = (spec: CommandScorerSpec): Set<string> => new Set([programIdentity({ command: spec.command, args: spec.args ?? [], cwd: dir })]);

  /** Runs a Node script as the scorer. */
  function run(script: string, options: { args?: string[]; timeoutMs?: number; trusted?: boolean; answer?: string; allowed?: boolean } = {}): Promise<unknown> {
    const file = join(dir, `scorer-${Math.random().toString(36).slice(2)}.js`);
    writeFileSync(file, script);
    const spec = { command: process.execPath, args: [file, ...(options.args ?? [])], timeoutMs: options.timeoutMs };
    return runCommandScorer(spec, sample('s1', 'Capital of France?', 'Paris'), options.answer ?? 'Paris', {
      cwd: dir,
      trusted: options.trusted ?? true,
      allowed: options.allowed === false ? new Set() : allowing(spec),
    });
  }

  it('reads the sample and answer as JSON on stdin and takes the first number printed', async () => {
    const script = `let input = ''; process.stdin.on('data', (c) => (input += c)); process.stdin.on('end', () => { const { sample, answer } = JSON.parse(input); console.log('score', answer === sample.reference ? 0.75 : 0.25, 'then 9'); });`;
    assert.equal(await run(script), 0.75);
    assert.equal(await run(script, { answer: 'Lyon' }), 0.25);
  });

  it('clamps the number to [0, 1]', async () => {
    assert.equal(await run('console.log("7")'), 1);
    assert.equal(await run('console.log("-3.5e2")'), 0);
  });

  it('passes arguments as they are, never through a shell', async () => {
    assert.equal(await run('console.log(process.argv[2] === "; echo 1 && exit 1" ? 1 : 0)', { args: ['; echo 1 && exit 1'] }), 1);
  });

  it('a program that exits with an error gives its code and first line of stderr', async () => {
    assert.deepEqual(await run('console.error("bad input\\nmore"); process.exit(3)'), { error: 'the scorer exited with code 3: bad input' });
  });

  it('a program that prints no number says what it printed', async () => {
    assert.deepEqual(await run('console.log("great")'), { error: 'the scorer printed no number (it printed "great")' });
  });

  it('a program that never exits is killed at its timeout', async () => {
    assert.deepEqual(await run('setInterval(() => {}, 1000)', { timeoutMs: 300 }), { error: 'the scorer did not finish within 0.3 s and was stopped' });
  });

  it('a program that floods stdout is stopped at 64 KB', async () => {
    assert.deepEqual(await run('const line = "x".repeat(1024) + "\\n"; for (;;) process.stdout.write(line);', { timeoutMs: 5_000 }), { error: 'the scorer printed more than 64 KB and was stopped' });
  });

  it('a program that ignores its input still scores', async () => {
    assert.equal(await run('console.log(1)', { answer: 'x'.repeat(1_000_000) }), 1);
  });

  it('a missing command is named', async () => {
    const spec = { command: join(dir, 'no-such-program') };
    const outcome = await runCommandScorer(spec, sample('s'), 'a', { cwd: dir, trusted: true, allowed: allowing(spec) });
    assert.match((outcome as { error: string }).error, /was not found/);
  });

  it('runs nothing in an untrusted workspace', async () => {
    const marker = join(dir, 'ran');
    const outcome = await run(`require('fs').writeFileSync(${JSON.stringify(marker)}, ''); console.log(1)`, { trusted: false });
    assert.deepEqual(outcome, { error: 'command scorers run only in trusted workspaces; trust this workspace to use it' });
    assert.throws(() => require('node:fs').statSync(marker), /ENOENT/);
  });

  it('runs nothing the run was not allowed to start, in a trusted workspace too', async () => {
    const marker = join(dir, 'ran-unallowed');
    const outcome = await run(`require('fs').writeFileSync(${JSON.stringify(marker)}, ''); console.log(1)`, { allowed: false });
    assert.match((outcome as { error: string }).error, /was not run: it was neither chosen in this window nor allowed by you/);
    assert.throws(() => require('node:fs').statSync(marker), /ENOENT/);
  });

  it('an allowance is for the program, its arguments and its directory together', () => {
    const base = { command: '/bin/sh', args: ['-c', 'true'], cwd: '/work' };
    assert.notEqual(programIdentity(base), programIdentity({ ...base, args: ['-c', 'touch marker'] }));
    assert.notEqual(programIdentity(base), programIdentity({ ...base, cwd: '/other' }));
    assert.notEqual(programIdentity({ ...base, args: ['-c true'] }), programIdentity({ ...base, args: ['-c', 'true'] }));
  });
});
