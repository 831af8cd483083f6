/**
 * A results file of about 100 MB, as a cloned repository may hold, against the real reader the
 * report uses: its size is checked before it is read, it is parsed on a worker thread and handed back
 * in batches, and the report's first screen (leaderboard, counts, provenance, the first page of
 * answers) is ready within 2 s, while the event loop is never blocked for more than 200 ms.
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { countProvenance } from '../../src/evals/answerProvenance';
import { maxRunFileBytes, openRunFile, runFileSizeProblem } from '../../src/evals/resultsFileLoader';
import { answersPerPage } from '../../src/evals/reportPaging';
import { previewChars } from '../../src/webview/evalReport/evalReportProtocol';
import { measure } from './support/measure';

const training = 'wandb-artifact:///team/project/agent';
const samples = 10_000;
const steps = [100, 200, 300, 400];

/**
 * Writes the file in a child process with the real serializer, so the test's own heap holds none of
 * it: garbage of the writing would otherwise be collected while the reading is measured.
 */
function writeLargeRun(file: string): void {
  const script = `
    const { serializeRunFile } = require(${JSON.stringify(join(__dirname, '..', '..', 'src', 'evals', 'resultsFile.js'))});
    const training = ${JSON.stringify(training)};
    const models = ${JSON.stringify(steps)}.map((step) => ({ id: training + ':step' + step, label: 'step ' + step, kind: 'checkpoint', api: 'training', step, trainingModelId: training }));
    const filler = 'The answer, reasoned step by step at some length. '.repeat(50);
    const answers = [];
    for (const model of models) for (let sample = 0; sample < ${samples}; sample++) answers.push({
      model: model.id, sample: 's' + sample, draw: 0, key: model.id + '|s' + sample + '|0', text: (sample % 7) + ' ' + filler,
      finishReason: 'stop', scores: { exact: (sample + model.step) % 3 === 0 ? 1 : 0 }, latencyMs: 120,
    });
    require('node:fs').writeFileSync(process.argv[1], serializeRunFile({
      kind: 'rl-studio-eval', version: 1, set: { path: 'evals/large.jsonl', hash: 'h', samples: ${samples} },
      scorers: [{ name: 'exact', spec: { kind: 'exactMatch' } }], parameters: { temperature: 0, seed: 1, n: 1, maxTokens: 256 },
      models, answers, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T01:00:00.000Z',
    }));`;
  execFileSync(process.execPath, ['-e', script, file], { stdio: 'inherit' });
}

describe('a 100 MB results file in the evaluation report', function () {
  this.timeout(120_000);
  let folder: string;
  let file: string;
  let bytes: number;

  before(() => {
    folder = mkdtempSync(join(tmpdir(), 'rl-studio-large-eval-'));
    file = join(folder, 'large.rleval.json');
    writeLargeRun(file);
    bytes = statSync(file).size;
  });

  after(() => rmSync(folder, { recursive: true, force: true }));

  it('shows its first screen within 2 s without blocking the event loop for 200 ms', async () => {
    assert.ok(bytes > 95 * 1024 * 1024, `the file is ${bytes} bytes`);
    let ticks = 0;
    const probe = setInterval(() => ticks++, 10);
    const started = performance.now();
    try {
      const { result, measurement } = await measure(async () => {
        const opened = await openRunFile(await readFile(file));
        assert.ok(opened.ok, opened.ok ? '' : opened.error);
        const { reader } = opened;
        try {
          const firstScreen = {
            leaderboard: reader.head.leaderboard,
            page: await reader.page(0, answersPerPage, previewChars),
            answerCount: reader.head.answerCount,
            at: performance.now() - started,
          };
          // Provenance follows the first screen; the loop stays free while the digests are made, and while every answer comes over (a rerun's path).
          const provenance = countProvenance(await reader.digests(), new Set());
          const provenanceAt = performance.now() - started;
          const whole = await reader.whole();
          return { ...firstScreen, provenance, provenanceAt, wholeAnswers: whole.answers.length, wholeAt: performance.now() - started };
        } finally {
          reader.dispose();
        }
      });
      assert.equal(result.answerCount, samples * steps.length);
      assert.equal(result.page.length, answersPerPage);
      assert.equal(result.wholeAnswers, samples * steps.length);
      assert.deepEqual(result.provenance, { total: samples * steps.length, producedHere: 0, fromFile: samples * steps.length });
      assert.equal(result.leaderboard.length, steps.length);
      assert.ok(result.leaderboard.every((row) => row.scored === samples));
      console.log(
        `      ${(bytes / 1024 / 1024).toFixed(0)} MB: first screen in ${result.at.toFixed(0)} ms, provenance in ${result.provenanceAt.toFixed(0)} ms, every answer in ${result.wholeAt.toFixed(0)} ms, longest event-loop stall ${measurement.maxEventLoopDelayMs.toFixed(0)} ms, ${ticks} probe ticks`,
      );
      assert.ok(result.at < 2_000, `the first screen took ${result.at.toFixed(0)} ms`);
      assert.ok(measurement.maxEventLoopDelayMs < 200, `the event loop was blocked for ${measurement.maxEventLoopDelayMs.toFixed(0)} ms`);
      assert.ok(ticks > 0, 'the probe ran while the file was read');
    } finally {
      clearInterval(probe);
    }
  });

  it('refuses a file past the cap by its size, before reading it, with a message that says what to do', () => {
    assert.equal(runFileSizeProblem(maxRunFileBytes), undefined);
    assert.match(runFileSizeProblem(maxRunFileBytes + 1)!, /^The results file cannot be read: it is 256 MB, more than the 256 MB RL Studio reads\. Split the evaluation/);
    assert.match(runFileSizeProblem(300 * 1024 * 1024)!, /it is 300 MB/);
  });

  it('reports a broken file read on the worker as a message, and the reader ends', async () => {
    const broken = Buffer.from(`{"kind":"rl-studio-eval","version":1,"answers":[${'"x",'.repeat(200_000)}`);
    const opened = await openRunFile(broken);
    assert.equal(opened.ok, false);
    assert.match((opened as { error: string }).error, /^The results file cannot be read: it is not JSON/);
  });
});
