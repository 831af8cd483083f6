/**
 * The evaluation report page, its real bundle in chromium under the editor's policy, with the editor
 * played in Node from a made-up run: the leaderboard and its intervals, the score against step,
 * the matrix and its filters, one sample side by side, failures and their retry, a run in progress,
 * hostile text, and a large run keeping the document small.
 */
import assert from 'node:assert/strict';
import type { AnswerRecord } from '../../../src/evals/model/evalModel';
import { rankRows } from '../../../src/evals/page/leaderboard';
import { maxMatrixRows } from '../../../src/evals/page/sampleMatrix';
import { fixtureRun, hostileText, leaderboardOf } from './reportFixtures';
import { evalReportPageSuite, fixtureHandlers, type EvalReportPageUnderTest } from './pageHarness';
import { requestMatching } from '../rollouts/waitFor';

async function noProblems(view: EvalReportPageUnderTest): Promise<void> {
  assert.deepEqual(view.problems, []);
  assert.deepEqual(await view.page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations), []);
}

/** A matrix cell's own text (its Retry button aside). */
function cellText(view: EvalReportPageUnderTest, sample: number, model: number): Promise<string | undefined> {
  return view.page.evaluate(
    ([sample, model]) => document.querySelector(`.matrix-body .matrix-row[data-sample="${sample}"] .col-model[data-model="${model}"]`)?.firstChild?.textContent ?? undefined,
    [sample, model],
  );
}

/** The matrix's rows on screen, in order: their sample labels. */
function shownSamples(view: EvalReportPageUnderTest): Promise<string[]> {
  return view.page.evaluate(() =>
    [...document.querySelectorAll('.matrix-body .matrix-row')]
      .sort((a, b) => Number(a.getAttribute('aria-rowindex')) - Number(b.getAttribute('aria-rowindex')))
      .map((row) => row.querySelector('.sample-number')?.textContent ?? ''),
  );
}

describe('evaluation report page in a real browser', function () {
  this.timeout(60_000);
  const { withPage } = evalReportPageSuite();
  const steps = [50, 100, 150, 200, 250];

  it('ranks the leaderboard by mean, best first and marked, with each interval drawn where its bounds are', async () => {
    const run = fixtureRun({ samples: 120, steps, base: true });
    await withPage(
      fixtureHandlers(() => run),
      async (view) => {
        await view.page.waitForSelector('.leaderboard tbody tr');
        const seen = await view.page.evaluate(() =>
          [...document.querySelectorAll('.leaderboard tbody tr')].map((row) => ({
            model: (row as HTMLElement).dataset.model,
            label: row.querySelector('.col-model')?.textContent,
            mean: Number(row.querySelector('.mean')?.textContent),
            best: row.classList.contains('best'),
            low: parseFloat((row.querySelector('.ci-whisker.low') as HTMLElement).style.left),
            high: parseFloat((row.querySelector('.ci-whisker.high') as HTMLElement).style.left),
            dot: parseFloat((row.querySelector('.ci-mean') as HTMLElement).style.left),
            buttons: [...row.querySelectorAll('button')].map((button) => button.textContent),
          })),
        );
        const expected = rankRows(run.snapshot.leaderboard);
        assert.deepEqual(
          seen.map((row) => row.model),
          expected.map((row) => row.model),
        );
        assert.ok(
          seen.every((row, at) => at === 0 || row.mean <= seen[at - 1]!.mean),
          'means descend',
        );
        assert.deepEqual(
          seen.map((row) => row.best),
          seen.map((_, at) => at === 0),
        );
        assert.match(seen[0]!.label ?? '', /best$/);
        for (const [at, row] of seen.entries()) {
          const data = expected[at]!;
          assert.ok(row.low < row.dot && row.dot < row.high, `${row.model}: whiskers ${row.low}..${row.high} around the mean ${row.dot}`);
          // A wider interval is drawn wider, on the one scale of every row.
          for (const other of seen) {
            const otherData = expected[seen.indexOf(other)]!;
            if (otherData.high - otherData.low > (data.high - data.low) * 1.2) assert.ok(other.high - other.low > row.high - row.low);
          }
        }
        const step200 = seen.find((row) => row.label?.startsWith('step 200'))!;
        assert.deepEqual(step200.buttons, ['Use step 200', 'Delete the others']);
        assert.deepEqual(seen.find((row) => row.label === 'base')!.buttons, [], 'the base model is not promoted');
        await view.page.click('.leaderboard tr.best button:has-text("Use step")');
        assert.deepEqual(await requestMatching(view.requests, 'useModel', () => true), { model: seen[0]!.model });
        await view.page.click('.leaderboard tr.best button:has-text("Delete the others")');
        assert.deepEqual(await requestMatching(view.requests, 'deleteOthers', () => true), { keep: seen[0]!.model });
        await noProblems(view);
      },
    );
  });

  it('draws one point per checkpoint by step, the reward on a second axis, the base as a dashed line, and another metric when picked', async () => {
    const run = fixtureRun({ samples: 60, steps, base: true });
    await withPage(
      fixtureHandlers(() => run),
      async (view) => {
        await view.page.waitForSelector('.score-chart circle.dot[data-series="score"]');
        const chart = () =>
          view.page.evaluate(() => ({
            points: [...document.querySelectorAll('.score-chart circle.dot[data-series="score"]')].map((dot) => ({
              step: Number(dot.getAttribute('data-step')),
              x: Number(dot.getAttribute('cx')),
              y: Number(dot.getAttribute('cy')),
            })),
            metric: [...document.querySelectorAll('.score-chart circle.dot[data-series="metric"]')].map((dot) => Number(dot.getAttribute('cy'))),
            rightAxis: document.querySelectorAll('.score-chart .right-axis').length,
            base: document.querySelectorAll('.score-chart path.line.dashed').length,
            band: document.querySelector('.score-chart path.band')?.getAttribute('d') ?? '',
            picked: (document.querySelector('.metric-pick select') as HTMLSelectElement).value,
            legend: document.querySelector('.chart-legend')?.textContent ?? '',
          }));
        const first = await chart();
        assert.deepEqual(
          first.points.map((point) => point.step),
          steps,
        );
        assert.ok(
          first.points.every((point, at) => at === 0 || point.x > first.points[at - 1]!.x),
          'steps left to right',
        );
        const means = steps.map((step) => run.snapshot.leaderboard.find((row) => row.step === step)!.mean);
        const best = means.indexOf(Math.max(...means));
        assert.equal(Math.min(...first.points.map((point) => point.y)), first.points[best]!.y, 'the best mean is the highest point');
        assert.equal(first.picked, 'reward');
        assert.equal(first.metric.length, steps.length);
        assert.ok(first.rightAxis > 0, 'the metric has an axis of its own, on the right');
        const rewards = steps.map((step) => run.models.find((model) => model.step === step)!.metrics!.reward!);
        assert.equal(Math.min(...first.metric), first.metric[rewards.indexOf(Math.max(...rewards))], 'the highest reward is the highest dot');
        assert.equal(first.base, 1);
        assert.match(first.band, /Z$/);
        assert.match(first.legend, /reward \(training, right axis\)/);
        await view.page.selectOption('.metric-pick select', 'loss');
        const second = await chart();
        const losses = steps.map((step) => run.models.find((model) => model.step === step)!.metrics!.loss!);
        assert.equal(Math.max(...second.metric), second.metric[losses.indexOf(Math.min(...losses))], 'the lowest loss is the lowest dot');
        assert.match(second.legend, /loss/);
        await noProblems(view);
      },
    );
  });

  it('reads the score chart as the training charts: one hover naming every line at a step, a zoom on steps and back, a log scale for the metric, and its data and image saved through the host', async () => {
    const run = fixtureRun({ samples: 40, steps, base: true });
    await withPage(
      fixtureHandlers(() => run),
      async (view) => {
        const plot = '.score-chart svg';
        await view.page.waitForSelector('.score-chart circle.dot[data-series="score"]');
        const dot = (step: number) => view.page.locator(`.score-chart circle.dot[data-series="score"][data-step="${step}"]`);
        const at150 = (await dot(150).boundingBox())!;
        await view.page.mouse.move(at150.x + at150.width / 2, at150.y + at150.height / 2);
        await view.page.waitForSelector('.score-chart .chart-hover:not([hidden])');
        const hover = (await view.page.locator('.score-chart .chart-hover').innerText()).split('\n');
        const row150 = run.snapshot.leaderboard.find((row) => row.step === 150)!;
        assert.equal(hover[0], 'training step 150 · step 150');
        assert.equal(hover[1], `mean score ${row150.mean.toFixed(3)} (95 % CI ${row150.low.toFixed(3)} to ${row150.high.toFixed(3)})`);
        assert.match(hover[2] ?? '', /^reward \S+ \(training, right axis\)$/);
        assert.match(hover[3] ?? '', /^base \(Qwen\/Qwen3-8B\): [\d.]+ \(95 % CI [\d.]+ to [\d.]+\)$/);

        // Drag from step 100 to step 200: the steps outside go; a double-click brings them back.
        const at100 = (await dot(100).boundingBox())!;
        const at200 = (await dot(200).boundingBox())!;
        await view.page.mouse.move(at100.x + at100.width / 2 - 2, at100.y);
        await view.page.mouse.down();
        await view.page.mouse.move(at200.x + at200.width / 2 + 2, at200.y, { steps: 4 });
        await view.page.mouse.up();
        await view.page.waitForFunction(() => document.querySelector('.score-chart .x-name')?.textContent?.includes('zoomed'));
        const shownSteps = () => view.page.evaluate(() => [...document.querySelectorAll('.score-chart circle.dot[data-series="score"]')].map((each) => Number(each.getAttribute('data-step'))));
        assert.deepEqual(await shownSteps(), [100, 150, 200]);
        await view.page.locator(plot).dblclick();
        await view.page.waitForFunction(() => !document.querySelector('.score-chart .x-name')?.textContent?.includes('zoomed'));
        assert.deepEqual(await shownSteps(), steps);

        const rightTicks = () => view.page.evaluate(() => [...document.querySelectorAll('.score-chart .right-axis')].map((tick) => tick.textContent ?? ''));
        const scoreTicks = () => view.page.evaluate(() => [...document.querySelectorAll('.score-chart .axis:not(.right-axis):not(.x-axis):not(.x-name)')].map((tick) => tick.textContent ?? ''));
        const linear = await scoreTicks();
        const linearRight = (await rightTicks()).join(' ');
        await view.page.getByLabel('Log scale (right axis)').check();
        await view.page.waitForFunction((before) => [...document.querySelectorAll('.score-chart .right-axis')].map((tick) => tick.textContent ?? '').join(' ') !== before, linearRight);
        assert.ok((await rightTicks()).length > 0);
        assert.deepEqual(await scoreTicks(), linear, 'the scores stay on their linear axis');

        await view.page.locator('.score-chart').getByRole('button', { name: 'CSV' }).click();
        const csv = await requestMatching<{ fileName: string; content: string; encoding: string }>(view.requests, 'saveChart', (file) => file.fileName.endsWith('.csv'));
        const rows = csv.content.trim().split('\n');
        assert.equal(rows[0], 'step,model,kind,mean,ci95_low,ci95_high,reward');
        assert.equal(rows.length, 1 + steps.length + 1, 'a row per checkpoint, and the base model');
        assert.equal(csv.encoding, 'utf8');
        await view.page.locator('.score-chart').getByRole('button', { name: 'PNG' }).click();
        const png = await requestMatching<{ fileName: string; content: string; encoding: string }>(view.requests, 'saveChart', (file) => file.fileName.endsWith('.png'));
        assert.equal(png.encoding, 'base64');
        assert.equal(Buffer.from(png.content, 'base64').subarray(1, 4).toString(), 'PNG');
        await noProblems(view);
      },
    );
  });

  it('narrows the matrix to the samples where the models disagree, and orders by spread', async () => {
    const run = fixtureRun({ samples: 80, steps: [100, 200], base: true });
    await withPage(
      fixtureHandlers(() => run),
      async (view) => {
        await view.page.waitForSelector('.matrix-body .matrix-row');
        const count = () => view.page.locator('.match-count').textContent();
        assert.equal(await count(), '80 samples');
        const spreads = () => view.page.evaluate(() => [...document.querySelectorAll('.matrix-body .matrix-row')].map((row) => Number(row.querySelector('.col-spread')?.textContent)));
        assert.ok(
          (await spreads()).some((spread) => spread < 0.5),
          'some samples agree',
        );
        await view.page.click('button:has-text("Where they disagree")');
        await view.page.waitForFunction(() => document.querySelector('.match-count')?.textContent !== '80 samples');
        const narrowed = Number(/^(\d+) of 80/.exec((await count()) ?? '')?.[1]);
        assert.ok(narrowed > 0 && narrowed < 80, `narrowed to ${narrowed}`);
        assert.ok((await spreads()).every((spread) => spread >= 0.5));
        assert.equal(await view.page.getAttribute('button:has-text("Where they disagree")', 'aria-pressed'), 'true');
        await view.page.click('button:has-text("Where they disagree")');
        await view.page.selectOption('.sort-pick select', 'spread');
        await view.page.waitForFunction(() => document.querySelector('.matrix-body .matrix-row[aria-rowindex="2"] .col-spread')?.textContent === '1.00');
        await view.page.fill('.filter-bar input[type=search]', 'Question 17:');
        await view.page.waitForFunction(() => document.querySelector('.match-count')?.textContent === '1 of 80 samples');
        assert.deepEqual(await shownSamples(view), ['#17']);
        await view.page.fill('.filter-bar input[type=search]', 'no such prompt');
        await view.page.waitForSelector('.list-status:not([hidden])');
        assert.equal(await view.page.locator('.list-status').textContent(), 'No samples match the filter.');
        await noProblems(view);
      },
    );
  });

  it("shows a sample side by side: prompt, reference, each model's answers with their differences from the best, scores, finish and latency; a cut answer comes whole", async () => {
    const run = fixtureRun({ samples: 20, steps, longEvery: 3 });
    await withPage(
      fixtureHandlers(() => run),
      async (view) => {
        await view.page.waitForSelector('.matrix-body .matrix-row');
        await view.page.click('.matrix-body .matrix-row[aria-rowindex="2"] .col-model[data-model="1"]');
        await view.page.waitForSelector('.side-by-side:not([hidden]) .answer-column');
        const seen = await view.page.evaluate(() => ({
          title: document.querySelector('.side-by-side h2')?.textContent,
          prompt: [...document.querySelectorAll('.side-by-side .prompt .message')].map((message) => message.textContent),
          columns: [...document.querySelectorAll('.side-by-side .answer-column')].map((column) => ({
            model: (column as HTMLElement).dataset.model,
            best: column.classList.contains('best'),
            focused: column.classList.contains('focused'),
            added: [...column.querySelectorAll('ins.diff-added')].map((span) => span.textContent),
            removed: [...column.querySelectorAll('del.diff-removed')].map((span) => span.textContent),
            scores: [...column.querySelectorAll('.score-chip')].map((chip) => chip.textContent),
            facts: column.querySelector('.answer-facts')?.textContent,
          })),
          selected: document.querySelector('.matrix-body .matrix-row.selected .sample-number')?.textContent,
        }));
        assert.equal(seen.title, 'Sample #1');
        assert.deepEqual(seen.prompt, [
          'systemYou are a careful assistant. Answer exactly.',
          'userQuestion 1: what is the capital of France? Answer in one sentence, then explain briefly.',
          'referenceParis',
        ]);
        assert.equal(seen.selected, '#1');
        const ranking = rankRows(run.snapshot.leaderboard).map((row) => row.model);
        assert.deepEqual(
          seen.columns.map((column) => column.model),
          ranking,
          'best model first',
        );
        assert.equal(seen.columns[0]!.best, true);
        assert.deepEqual(seen.columns[0]!.added, [], 'the best answer is the one compared with');
        assert.equal(seen.columns.find((column) => column.model === run.models[1]!.id)!.focused, true);
        const differing = seen.columns.filter((column) => column.added.length || column.removed.length);
        assert.ok(differing.length > 0, 'some answers differ from the best');
        assert.ok(differing.some((column) => column.added.includes(' and textbooks') || column.removed.includes(' and textbooks')) || differing.some((column) => column.added.length > 0));
        for (const column of seen.columns) {
          assert.match(column.scores.join(' '), /exact (0|1)\.00/);
          assert.match(column.facts ?? '', /^finish: (stop|length) · [\d.]+ (ms|s) · \d+ tokens$/);
        }
        // Sample 3's answers include cut ones: each is asked whole and drawn whole.
        const before = view.requests.length;
        await view.page.click('.matrix-body .matrix-row[aria-rowindex="4"]');
        const asked = await requestMatching<{ key: string }>(view.requests, 'answer', () => true, before);
        assert.ok(run.whole.get(asked.key)!.text!.endsWith('The end.'));
        await view.page.waitForFunction((key) => document.querySelector(`.side-by-side .answer[data-key="${key}"] .answer-text`)?.textContent?.endsWith('The end.'), asked.key);
        await view.page.waitForFunction(() => document.querySelectorAll('.side-by-side .note').length === 0);
        await view.page.keyboard.press('Escape');
        await view.page.waitForSelector('.side-by-side', { state: 'hidden' });
        await noProblems(view);
      },
    );
  });

  it("retries a failed cell's answers by their keys, lists every failure, and retries them all", async () => {
    const run = fixtureRun({ samples: 30, steps: [100, 200], failEvery: 7 });
    const failed = run.snapshot.run.answers.filter((answer) => answer.error !== undefined);
    await withPage(
      fixtureHandlers(() => run),
      async (view) => {
        await view.page.waitForSelector('.matrix-body .matrix-row');
        const listed = await view.page.evaluate(() => [...document.querySelectorAll('.failure-item')].map((item) => (item as HTMLElement).dataset.key));
        const scorerFailures = run.snapshot.run.answers.filter((answer) => answer.error === undefined && typeof answer.scores.exact === 'object').length;
        assert.equal(listed.length, failed.length + scorerFailures);
        for (const answer of failed) assert.ok(listed.includes(answer.key), `${answer.key} listed`);
        assert.match((await view.page.locator('.failures h2').textContent()) ?? '', new RegExp(`^${listed.length} answers failed$`));
        const target = failed[0]!;
        const sample = Number(target.sample.slice(1));
        const model = run.models.findIndex((each) => each.id === target.model);
        await view.page.click('button:has-text("Failures only")');
        const cell = view.page.locator(`.matrix-body .matrix-row[data-sample="${sample}"] .col-model[data-model="${model}"]`);
        assert.match((await cell.getAttribute('class')) ?? '', /failed/);
        await cell.locator('button.cell-retry').click();
        assert.deepEqual(await requestMatching(view.requests, 'retry', () => true), { keys: [target.key] });
        const before = view.requests.length;
        await view.page.click('.failures button:has-text("Retry all")');
        const all = await requestMatching<{ keys: string[] }>(view.requests, 'retry', () => true, before);
        assert.deepEqual([...all.keys].sort(), [...listed].sort());
        await noProblems(view);
      },
    );
  });

  it('follows a run in progress: counts, failures, the rate limit, new answers merged, Cancel, and the end', async () => {
    const run = fixtureRun({ samples: 10, steps: [100, 200], progress: { done: 20, total: 40, failed: 0 } });
    const waiting = run.snapshot.run.answers.filter((answer) => answer.model === run.models[1]!.id);
    run.snapshot.run.answers = run.snapshot.run.answers.filter((answer) => answer.model === run.models[0]!.id);
    run.snapshot.leaderboard = leaderboardOf(run.models, run.snapshot.run.answers, 'exact');
    await withPage(
      fixtureHandlers(() => run),
      async (view) => {
        await view.page.waitForSelector('.progress-row:not([hidden])');
        assert.equal(await view.page.locator('.counts').textContent(), '20 of 40 answers');
        assert.equal(await cellText(view, 0, 1), '·');
        const failedOne: AnswerRecord = { ...waiting[0]!, text: undefined, scores: {}, error: 'The request timed out after 60 s.' } as AnswerRecord;
        const arrived = [failedOne, ...waiting.slice(1, 6)];
        const answers = [...run.snapshot.run.answers, ...arrived];
        view.push({ type: 'answers', answers: arrived, leaderboard: leaderboardOf(run.models, answers, 'exact'), progress: { done: 26, total: 40, failed: 1, rateLimitedUntil: Date.now() + 20_000 } });
        await view.page.waitForFunction(() => document.querySelector('.counts')?.textContent === '26 of 40 answers · 1 failed');
        assert.match((await view.page.locator('.rate-limited').textContent()) ?? '', /^Rate limited by the platform: resuming in (19|20) s$/);
        assert.match((await view.page.locator('.matrix-body .matrix-row[data-sample="0"] .col-model[data-model="1"]').getAttribute('class')) ?? '', /failed/);
        assert.match((await cellText(view, 1, 1)) ?? '', /^(0|1)\.00$/);
        assert.equal(await view.page.locator('.failure-item').count(), 1);
        await view.page.click('.progress-row button:has-text("Cancel")');
        await requestMatching(view.requests, 'cancel', () => true);
        // The failed answer asked again and answered: its failure leaves the list.
        const retried = waiting[0]!;
        view.push({ type: 'answers', answers: [retried], leaderboard: leaderboardOf(run.models, [...answers.slice(1), retried], 'exact') });
        await view.page.waitForSelector('.progress-row', { state: 'hidden' });
        await view.page.waitForSelector('.failures', { state: 'hidden' });
        await noProblems(view);
      },
    );
  });

  it('keeps prompts and answers as text: no element, link or handler comes from them', async () => {
    const run = fixtureRun({ samples: 5, steps: [100, 200], hostile: true });
    run.snapshot.run.models[1]!.label = hostileText;
    await withPage(
      fixtureHandlers(() => run),
      async (view) => {
        await view.page.waitForSelector('.matrix-body .matrix-row');
        await view.page.click('.matrix-body .matrix-row[data-sample="1"]');
        await view.page.waitForSelector('.side-by-side:not([hidden]) .answer');
        const seen = await view.page.evaluate(() => ({
          pwned: (window as unknown as { __pwned?: number }).__pwned,
          images: document.querySelectorAll('img').length,
          links: document.querySelectorAll('a').length,
          bold: document.querySelectorAll('b').length,
          handlers: [...document.querySelectorAll('*')].filter((element) => [...element.attributes].some((attribute) => attribute.name.startsWith('on'))).length,
          styled: [...document.querySelectorAll('[style]')].filter((element) => /url|expression/i.test(element.getAttribute('style') ?? '')).length,
          promptRow: document.querySelector('.matrix-body .matrix-row[data-sample="1"] .sample-prompt')?.textContent,
          prompt: document.querySelector('.side-by-side .message.role-user .answer-text')?.textContent,
          answers: [...document.querySelectorAll('.side-by-side .answer .answer-text')].map((element) => element.textContent),
          header: document.querySelector('.matrix-head')?.textContent,
        }));
        assert.equal(seen.pwned, undefined);
        assert.deepEqual([seen.images, seen.links, seen.bold, seen.handlers, seen.styled], [0, 0, 0, 0, 0]);
        assert.equal(seen.promptRow, hostileText);
        assert.equal(seen.prompt, hostileText);
        assert.ok(seen.answers.every((text) => text?.startsWith(hostileText)));
        assert.ok(seen.header?.includes(hostileText));
        await noProblems(view);
      },
    );
  });

  it('keeps the document bounded for a 5,000-answer run (1,000 samples × 5 checkpoints), scrolled to the end', async () => {
    const run = fixtureRun({ samples: 1_000, steps });
    assert.equal(run.snapshot.run.answers.length, 5_000);
    await withPage(
      fixtureHandlers(() => run),
      async (view) => {
        await view.page.waitForSelector('.matrix-body .matrix-row');
        const size = () => view.page.evaluate(() => ({ rows: document.querySelectorAll('.matrix-body .matrix-row').length, elements: document.querySelectorAll('*').length }));
        const first = await size();
        assert.ok(first.rows > 10 && first.rows <= maxMatrixRows, `rows: ${first.rows}`);
        await view.page.evaluate(() => {
          const matrix = document.querySelector('.matrix') as HTMLElement;
          matrix.scrollTop = matrix.scrollHeight;
        });
        await view.page.waitForFunction(() => [...document.querySelectorAll('.matrix-body .sample-number')].some((label) => label.textContent === '#1,000'));
        const last = await size();
        assert.ok(last.rows <= maxMatrixRows, `rows: ${last.rows}`);
        assert.ok(last.elements < 2_500, `elements: ${last.elements}`);
        assert.ok(Math.abs(last.elements - first.elements) < 200, `${first.elements} → ${last.elements}`);
        await noProblems(view);
      },
    );
  });

  it('saves its place: filters, order, the sample shown and the chart metric', async () => {
    const run = fixtureRun({ samples: 40, steps });
    await withPage(
      fixtureHandlers(() => run),
      async (view) => {
        await view.page.waitForSelector('.matrix-body .matrix-row');
        await view.page.click('button:has-text("Where they disagree")');
        await view.page.selectOption('.sort-pick select', 'spread');
        await view.page.click('.matrix-body .matrix-row[aria-rowindex="3"]');
        await view.page.selectOption('.metric-pick select', 'loss');
        const selected = await view.page.locator('.matrix-body .matrix-row.selected').getAttribute('data-sample');
        await view.page.waitForFunction(() => (window as unknown as { acquireVsCodeApi(): { getState(): { metric?: string } | undefined } }).acquireVsCodeApi().getState()?.metric === 'loss');
        const state = await view.page.evaluate(() => (window as unknown as { acquireVsCodeApi(): { getState(): unknown } }).acquireVsCodeApi().getState());
        assert.deepEqual(state, { filter: { disagree: true, failures: false, text: '' }, sort: 'spread', scrollTop: 0, diff: true, selected: `s${selected}`, metric: 'loss' });
        await noProblems(view);
      },
    );
  });
  it('takes a large run a page at a time: the first page with the first screen, then each page it asks for, until every answer is in', async () => {
    const run = fixtureRun({ samples: 300, steps: [100, 200, 300], draws: 3, failEvery: 11 });
    const all = run.snapshot.run.answers;
    const pageSize = 1_000;
    const offsets: number[] = [];
    for (let offset = pageSize; offset < all.length; offset += pageSize) offsets.push(offset);
    assert.ok(offsets.length >= 2, `${all.length} answers make more than two pages`);
    run.snapshot.run.answers = all.slice(0, pageSize);
    run.snapshot.answerCount = all.length;
    await withPage(
      fixtureHandlers(() => run, {
        answers: (params) => {
          const { offset, limit } = params as { offset: number; limit: number };
          return { answers: all.slice(offset, offset + Math.min(limit, pageSize)), total: all.length };
        },
      }),
      async (view) => {
        await view.page.waitForSelector('.leaderboard tbody tr');
        await view.page.waitForSelector('.loading-note', { state: 'hidden' });
        const asked = view.requests.filter((request) => request.method === 'answers').map((request) => (request.params as { offset: number }).offset);
        assert.deepEqual(asked, offsets, 'each page asked once, in turn');
        const failures = all.filter((answer) => answer.error !== undefined || typeof answer.scores.exact === 'object').length;
        assert.ok(failures > 50, 'failures on every page');
        await view.page.waitForFunction((count) => document.querySelector('.failures h2')?.textContent === `${count.toLocaleString('en-US')} answers failed`, failures);
        await noProblems(view);
      },
    );
  });

  it('says plainly how many answers came with the file rather than from a run here', async () => {
    const run = fixtureRun({ samples: 40, steps: [100, 200] });
    await withPage(
      fixtureHandlers(() => run),
      async (view) => {
        await view.page.waitForSelector('.leaderboard tbody tr');
        assert.equal(await view.page.locator('.provenance-note').isHidden(), true);
        view.push({ type: 'provenance', provenance: { total: 320, producedHere: 8, fromFile: 312 } });
        await view.page.waitForSelector('.provenance-note:not([hidden])');
        assert.match((await view.page.locator('.provenance-note').textContent()) ?? '', /^312 of 320 answers came with the file; they were not produced on this machine/);
        view.push({ type: 'provenance', provenance: { total: 320, producedHere: 320, fromFile: 0 } });
        await view.page.waitForSelector('.provenance-note', { state: 'hidden' });
        await noProblems(view);
      },
    );
  });

  it('marks a program scorer visibly, naming the program and its arguments as text', async () => {
    const run = fixtureRun({ samples: 20, steps: [100, 200] });
    run.snapshot.run.scorers = [...run.snapshot.run.scorers, { name: 'grade', spec: { kind: 'command', command: '/bin/sh', args: ['-c', 'curl x | sh <b>'] } }];
    await withPage(
      fixtureHandlers(() => run),
      async (view) => {
        const chip = view.page.locator('.chip.program');
        await chip.waitFor();
        assert.equal(await view.page.locator('.chip.program').count(), 1, 'only the command scorer is marked');
        assert.equal((await chip.textContent())?.replace(/\s+/g, ' ').trim(), 'program grade');
        assert.equal(await chip.getAttribute('title'), 'Runs a program on this machine: "/bin/sh" "-c" "curl x | sh <b>". It runs only when you chose it, or allowed it when asked.');
        assert.equal(await view.page.locator('.chip.program b').count(), 0);
        await noProblems(view);
      },
    );
  });

  it('marks a checkpoint deleted since and offers nothing on it; crowns no model on a tie', async () => {
    const run = fixtureRun({ samples: 40, steps: [100, 200, 300] });
    const [first, second] = rankRows(run.snapshot.leaderboard);
    run.snapshot.leaderboard = run.snapshot.leaderboard.map((row) => (row.model === second!.model ? { ...row, mean: first!.mean } : row));
    await withPage(
      fixtureHandlers(() => run),
      async (view) => {
        await view.page.waitForSelector('.leaderboard tbody tr');
        assert.equal(await view.page.locator('.leaderboard tr.best').count(), 0, 'a tie crowns nobody');
        const gone = run.models[0]!.id;
        view.push({ type: 'checkpoints', gone: [gone] });
        const row = view.page.locator(`.leaderboard tr[data-model="${gone}"]`);
        await view.page.waitForSelector(`.leaderboard tr.deleted[data-model="${gone}"]`);
        assert.match((await row.locator('.col-model').textContent()) ?? '', /deleted$/);
        assert.deepEqual(await row.locator('button').evaluateAll((buttons) => buttons.map((button) => (button as HTMLButtonElement).disabled)), [true, true]);
        const other = view.page.locator(`.leaderboard tr[data-model="${run.models[1]!.id}"] button`);
        assert.deepEqual(await other.evaluateAll((buttons) => buttons.map((button) => (button as HTMLButtonElement).disabled)), [false, false]);
        await noProblems(view);
      },
    );
  });
});
