/**
 * Hostile files against the real analysis, diagnostics and trajectory checks: nesting far deeper
 * than a recursive parser's stack, a trajectory file far larger than anything sent, regular
 * expressions built to backtrack, payloads made of nothing but variables. Each must end in a
 * diagnostic a person can read, never an exception, without freezing the extension host.
 */
import { strict as assert } from 'node:assert';
import { parseExperimentalConfig } from '../../src/training/model/experimentalConfig';
import { checkTrajectoryFile, parseTrajectoryFile, tooLargeToRead } from '../../src/platform/kit/trajectoryFile';
import { maxTrajectoryFileSize } from '../../src/platform/kit/trajectoryLimits';
import { analysePayload, defaultSampleEvent, diagnose, renderPayload, type PayloadDiagnostic } from '../../src/webhooks/model/payload';
import { maxReportedProblems } from '../../src/webhooks/model/payload/diagnostics';
import { aliasAutomation, jsonlOfSize, nestedArrays, nestedObjects, payloadOfReferences, trajectoryLine } from './support/inputDocuments';
import { measure, type Measurement } from './support/measure';

const tooDeep = 'nested deeper than 512 levels; not checked further';
const sample = defaultSampleEvent('ADD_ARTIFACT_ALIAS');

const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 20));

/**
 * Measures `work` with a turn of the event loop before it (so the monitor is running) and after it
 * (so the monitor's late timer fires and records a stall at the very end of synchronous work).
 */
function measured<T>(work: () => T | Promise<T>): Promise<{ result: T; measurement: Measurement }> {
  return measure(async () => {
    await tick();
    const result = await work();
    await tick();
    return result;
  });
}

/**
 * Everything the editor runs on a payload or automation document: analysis, diagnostics and the
 * preview, each in a turn of the event loop of its own as in the editor (diagnostics run on a
 * timer, the preview when it is asked for), so the stall measured is that of the longest one.
 */
async function everythingOn(text: string, kind: 'payload' | 'automation'): Promise<{ diagnostics: PayloadDiagnostic[]; rendered: ReturnType<typeof renderPayload> }> {
  const analysis = analysePayload(text, kind);
  await tick();
  const diagnostics = diagnose(analysis, { webhook: { name: 'hook', hasAccessToken: true } });
  await tick();
  return { diagnostics, rendered: renderPayload(analysis, { sample, maskSecrets: true }) };
}

function assertBounded(measurement: Measurement, stallMs: number, heapMiB: number): void {
  assert.ok(measurement.maxEventLoopDelayMs < stallMs, `the event loop stalled for ${measurement.maxEventLoopDelayMs.toFixed(0)} ms (bound ${stallMs} ms)`);
  assert.ok(measurement.peakHeapGrowthMiB < heapMiB, `the heap grew by ${measurement.peakHeapGrowthMiB.toFixed(0)} MiB (bound ${heapMiB} MiB)`);
}

describe('fault: hostile input files', () => {
  describe('nesting 100,000 levels deep', () => {
    it('a .jsonl trajectory line 100,000 levels deep: a "nested deeper than 512 levels" error on that line, the other lines read, stall < 150 ms', async () => {
      const text = [trajectoryLine(0), `{"trajectories": ${nestedArrays(100_000)}}`, nestedObjects(100_000), trajectoryLine(1)].join('\n');
      const { result, measurement } = await measured(() => checkTrajectoryFile(text, 'jsonl'));
      assert.equal(result.ok, false);
      assert.equal(result.groups.length, 2);
      assert.deepEqual(
        result.problems.map((problem) => [problem.line, problem.severity]),
        [
          [1, 'error'],
          [2, 'error'],
        ],
      );
      for (const problem of result.problems) assert.match(problem.message, new RegExp(`^${tooDeep}`));
      assertBounded(measurement, 150, 50);
    });

    it('a .json trajectory file 100,000 levels deep, closed or not: one "nested deeper" error, stall < 150 ms', async () => {
      const { result, measurement } = await measured(() => [parseTrajectoryFile(nestedArrays(100_000), 'json'), parseTrajectoryFile(nestedArrays(100_000, false), 'json')]);
      for (const parsed of result) {
        assert.equal(parsed.ok, false);
        assert.equal(parsed.problems.length, 1);
        assert.deepEqual([parsed.problems[0]!.line, parsed.problems[0]!.column], [0, 512]);
        assert.match(parsed.problems[0]!.message, new RegExp(`^${tooDeep}`));
      }
      assertBounded(measurement, 150, 50);
    });

    it('an automation whose payload is 100,000 levels deep: its fields read, one too-deep warning, no preview, stall < 150 ms', async () => {
      const text = aliasAutomation('^production$', `{"who": "\${event_author}", "deep": ${nestedObjects(100_000)}}`);
      const { result, measurement } = await measured(() => everythingOn(text, 'automation'));
      assert.deepEqual(
        result.diagnostics.map((diagnostic) => diagnostic.code),
        ['too-deep'],
      );
      assert.equal(result.diagnostics[0]!.message, 'Nested deeper than 512 levels: the rest of this file is not checked.');
      assert.match(result.rendered.invalid!.message, /not rendered: it is nested deeper than 512 levels/);
      assertBounded(measurement, 150, 50);
    });

    it('a payload 100,000 levels deep, valid or broken: the variables before the cut checked, one too-deep warning, stall < 150 ms', async () => {
      const valid = `{"a": "\${nope}", "deep": ${nestedArrays(100_000)}}`;
      const broken = `{"a": "\${nope}", "deep": ${nestedArrays(100_000, false)}`;
      const { result, measurement } = await measured(async () => [await everythingOn(valid, 'payload'), await everythingOn(broken, 'payload')]);
      for (const { diagnostics, rendered } of result) {
        assert.deepEqual(
          diagnostics.map((diagnostic) => diagnostic.code),
          ['unknown-variable', 'too-deep'],
        );
        assert.ok(rendered.invalid);
      }
      assertBounded(measurement, 150, 50);
    });

    it('an experimental config 10,000 or 100,000 levels deep: refused with a reason (too deep, or too long), no exception', () => {
      assert.deepEqual(parseExperimentalConfig(`{"a": ${nestedArrays(10_000)}}`), { ok: false, message: 'Nested deeper than 512 levels: an experimental config is a flat object of settings' });
      assert.deepEqual(parseExperimentalConfig(`{"a": ${nestedArrays(100_000)}}`), { ok: false, message: 'Too long: an experimental config is at most 100,000 characters' });
    });
  });

  describe('a 60 MB .jsonl trajectory file', () => {
    let text = '';
    before(() => {
      text = jsonlOfSize(60 * 1024 * 1024);
    });
    after(() => {
      text = '';
    });

    it('a 60 MB .jsonl file: the first 16 MB checked in slices, the line where checking stopped named, nothing kept to send; stall < 250 ms, heap < 100 MiB', async () => {
      const { result, measurement } = await measured(() => checkTrajectoryFile(text, 'jsonl'));
      assert.equal(result.ok, false);
      assert.deepEqual(result.groups, [], 'a file that cannot be sent keeps no groups in memory');
      assert.equal(result.problems.length, 1);
      const [problem] = result.problems;
      const firstUnchecked = text.slice(0, maxTrajectoryFileSize).split('\n').length - 1;
      assert.equal(problem!.line, firstUnchecked);
      assert.equal(
        problem!.message,
        `this file is larger than 16 MB, the most RL Studio sends in one request: lines ${firstUnchecked + 1} onward were not checked and nothing will be sent; split the file into smaller ones`,
      );
      assertBounded(measurement, 250, 100);
    });

    it('the same file sized on disk before anything reads it: refused unread, with its size and the limit', () => {
      const refused = tooLargeToRead(Buffer.byteLength(text));
      assert.equal(refused.ok, false);
      assert.equal(refused.problems[0]!.message, 'this file is 60 MB, larger than the 16 MB RL Studio sends in one request: it was not read and nothing will be sent; split it into smaller files');
    });
  });

  describe('regular expressions from automation files', () => {
    it('an alias regex (a+)+$: compiled, never run against input, so no backtracking; no diagnostic, stall < 150 ms', async () => {
      const text = aliasAutomation('(a+)+$');
      const { result, measurement } = await measured(() => everythingOn(text, 'automation'));
      assert.deepEqual(result.diagnostics, []);
      assertBounded(measurement, 150, 20);
    });

    it('a 100 KB alias regex: a "too long to check" warning on it, not compiled, stall < 150 ms', async () => {
      const regex = '(a+)+'.repeat(20_480);
      const text = aliasAutomation(regex);
      const { result, measurement } = await measured(() => everythingOn(text, 'automation'));
      assert.deepEqual(
        result.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.severity]),
        [['regex-too-long', 'warning']],
      );
      assert.equal(text.slice(result.diagnostics[0]!.start, result.diagnostics[0]!.end), JSON.stringify(regex));
      assert.match(result.diagnostics[0]!.message, /^The alias regular expression is 102,400 characters long, too long to check/);
      assertBounded(measurement, 150, 20);
    });
  });

  describe('payloads made of variables', () => {
    const broken: [string, (index: number) => string][] = [
      ['100,000 different unknown variables', (index) => `\${unknown_${index}}`],
      ['100,000 unterminated ${', () => '${'],
    ];
    for (const [what, reference] of broken) {
      it(`a payload with ${what}: the first ${maxReportedProblems} problems listed, then one saying the rest are not checked; stall < 1500 ms, heap < 150 MiB`, async () => {
        const text = payloadOfReferences(100_000, reference);
        const { result, measurement } = await measured(() => everythingOn(text, 'payload'));
        assert.equal(result.diagnostics.length, maxReportedProblems + 1);
        assert.equal(result.diagnostics[maxReportedProblems]!.code, 'too-many-problems');
        assert.ok(result.rendered.unresolved.length <= 20, `${result.rendered.unresolved.length} unresolved names listed`);
        assertBounded(measurement, 1500, 150);
      });
    }

    it('a payload with 100,000 known variables: no problem, every one substituted in the preview; stall < 1500 ms, heap < 150 MiB', async () => {
      const text = payloadOfReferences(100_000, () => '${event_type}');
      const { result, measurement } = await measured(() => everythingOn(text, 'payload'));
      assert.deepEqual(result.diagnostics, []);
      assert.equal(result.rendered.substitutions.length, 100_000);
      assert.equal(result.rendered.invalid, undefined);
      assertBounded(measurement, 1500, 150);
    });

    it('a 2 MB payload of ${${${… (a million openings): the first 100,000 analysed, a warning where analysis stopped, no preview; stall < 1500 ms, heap < 100 MiB', async () => {
      const text = `{"a": "${'${'.repeat(1_040_000)}"}`;
      const { result, measurement } = await measured(() => everythingOn(text, 'payload'));
      const codes = new Set(result.diagnostics.map((diagnostic) => diagnostic.code));
      assert.deepEqual([...codes], ['unterminated-reference', 'too-many-problems', 'too-many-variables']);
      assert.equal(result.diagnostics.length, maxReportedProblems + 1);
      assert.match(result.rendered.invalid!.message, /not rendered: it holds more than 100,000 variables/);
      assertBounded(measurement, 1500, 100);
    });

    it('unterminated ${ with 900 KB of spaces before or after the name: diagnosed in linear time, the fix keeps trailing spaces outside the braces; stall < 500 ms', async () => {
      const spaces = ' '.repeat(900 * 1024);
      const text = `{"a": "\${${spaces}x", "b": "\${event_type${spaces}"}`;
      const { result, measurement } = await measured(() => everythingOn(text, 'payload'));
      assert.deepEqual(
        result.diagnostics.map((diagnostic) => diagnostic.code),
        ['unterminated-reference', 'unterminated-reference'],
      );
      assert.equal(result.diagnostics[1]!.fixes![0], `\${event_type}${spaces}`);
      assertBounded(measurement, 500, 50);
    });

    it('a 3 MB payload: a single "too large to analyse" warning instead of an analysis, stall < 150 ms', async () => {
      const text = payloadOfReferences(300_000, (index) => `\${x${index}}`);
      const { result, measurement } = await measured(() => everythingOn(text, 'payload'));
      assert.deepEqual(
        result.diagnostics.map((diagnostic) => diagnostic.code),
        ['too-large'],
      );
      assert.match(result.diagnostics[0]!.message, /^This file is 3\.\d MB, too large to analyse \(the limit is 2 MB\)/);
      assert.equal(result.rendered.text, '');
      assertBounded(measurement, 150, 20);
    });
  });
});
