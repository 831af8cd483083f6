/**
 * The rollout inspector's page, its real bundle in chromium under the editor's policy, with the
 * editor played in Node from a made-up file: what a person sees of the file, the filters, the list
 * and an opened group, and that text from the file stays text.
 */
import assert from 'node:assert/strict';
import type { GroupQuery } from '../../../src/rollouts/model/inspectorModel';
import type { GroupScope } from '../../../src/rollouts/protocol';
import { maxHeatTokens } from '../../../src/rollouts/page/conversation';
import { generatedFile, hostileText } from './pageFixtures';
import { fixtureHandlers, rolloutsPageSuite, type RolloutsPageUnderTest } from './pageHarness';
import { requestMatching } from './waitFor';

type RowsParams = { query: GroupQuery; start: number; count: number };

/** The cells of the list's rows on screen, in order, as text. */
function shownRows(view: RolloutsPageUnderTest) {
  return view.page.evaluate(() =>
    [...document.querySelectorAll('.grid-rows .grid-row:not(.pending)')]
      .sort((a, b) => Number(a.getAttribute('aria-rowindex')) - Number(b.getAttribute('aria-rowindex')))
      .map((row) => [...row.querySelectorAll('.cell')].map((cell) => cell.textContent ?? '')),
  );
}

async function noProblems(view: RolloutsPageUnderTest): Promise<void> {
  assert.deepEqual(view.problems, []);
  assert.deepEqual(await view.page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations), []);
}

describe('rollout inspector page in a real browser', function () {
  this.timeout(60_000);
  const { withPage } = rolloutsPageSuite();

  it('shows the file: name and counts in the header, the reward histogram, finish reasons, flags and the first rows', async () => {
    const file = generatedFile(2_400, { groupsNotKept: 150 });
    await withPage(
      fixtureHandlers(() => file),
      async (view) => {
        await view.page.waitForSelector('.grid-rows .grid-row:not(.pending)');
        const seen = await view.page.evaluate(() => ({
          title: document.querySelector('h1')?.textContent,
          facts: document.querySelector('.page-header .facts')?.textContent,
          notKept: document.querySelector('.page-header .note')?.textContent,
          readingShown: !(document.querySelector('.reading-row') as HTMLElement).hidden,
          bars: [...document.querySelectorAll('.histogram .bar')].map((bar) => (bar.querySelector('.fill') as HTMLElement).style.height),
          reasons: [...document.querySelectorAll('.overview .bar-row')].map((row) => row.textContent),
          scope: document.querySelector('.action-bar .scope')?.textContent,
          header: [...document.querySelectorAll('.grid-header .cell')].map((cell) => cell.textContent),
        }));
        assert.equal(seen.title, 'rollouts-step-120.jsonl');
        assert.equal(seen.facts, '2,400 groups · 19,200 trajectories · JSON Lines');
        assert.match(seen.notKept ?? '', /^150 more groups are counted in the overview but not listed/);
        assert.equal(seen.readingShown, false);
        assert.equal(seen.bars.length, 20);
        const counts = file.state.statistics.reward.histogram.counts;
        const tallest = counts.indexOf(Math.max(...counts));
        assert.equal(seen.bars[tallest], '100%', 'the fullest bin is drawn full height');
        assert.ok(seen.reasons.includes('stop32,640'), seen.reasons.join(' | '));
        assert.ok(seen.reasons.some((text) => text?.includes('no signal')));
        assert.equal(seen.scope, 'All 2,400 matching groups');
        assert.deepEqual(seen.header.slice(0, 4), ['# ▲', 'Line', 'Traj.', 'Mean']);
        const rows = await shownRows(view);
        assert.ok(rows.length >= 10, `rows on screen: ${rows.length}`);
        const first = file.group(0).row;
        assert.deepEqual(rows[0]!.slice(0, 3), ['1', '1', '8']);
        assert.equal(rows[0]![3], String(Number(first.mean.toPrecision(4))));
        await noProblems(view);
      },
    );
  });

  it('shows how far the file is read, and why it could not be read further', async () => {
    const file = generatedFile(40);
    await withPage(
      fixtureHandlers(() => ({ ...file, state: { ...file.state, reading: { bytesRead: 250, totalBytes: 1000 } } })),
      async (view) => {
        await view.page.waitForSelector('.reading-row:not([hidden])');
        assert.match((await view.page.locator('.reading-row').textContent()) ?? '', /Reading the file… 25%/);
        view.push({ type: 'state', state: { ...file.state, version: 2, error: 'The file could not be read past line 41: the disk was removed.' } });
        await view.page.waitForSelector('.reading-row[hidden]', { state: 'attached' });
        assert.equal(await view.page.locator('.page-header .problem').textContent(), 'The file could not be read past line 41: the disk was removed.');
        await noProblems(view);
      },
    );
  });

  it('a file that is no longer there shows why and nothing else: no dashboard of zeros', async () => {
    const file = generatedFile(0);
    const gone = 'This file is no longer there: it was moved or deleted. Close this tab, or open the file where it is now.';
    await withPage(
      fixtureHandlers(() => ({ ...file, state: { ...file.state, error: gone, unreadable: true } })),
      async (view) => {
        await view.page.waitForSelector('body.unreadable');
        assert.equal(await view.page.locator('.page-header .problem').textContent(), gone);
        assert.equal(await view.page.locator('.overview').isVisible(), false);
        assert.equal(await view.page.locator('.workspace').isVisible(), false);
        view.push({ type: 'state', state: { ...file.state, version: 2 } });
        await view.page.waitForSelector('body:not(.unreadable)');
        assert.equal(await view.page.locator('.overview').isVisible(), true);
        await noProblems(view);
      },
    );
  });

  it('a flag count clicked in the overview asks rows with that flag, and the list shows only those groups', async () => {
    const file = generatedFile(600);
    await withPage(
      fixtureHandlers(() => file),
      async (view) => {
        await view.page.waitForSelector('.grid-rows .grid-row:not(.pending)');
        await view.page.click('.overview button[data-flag="noSignal"]');
        const asked = await requestMatching<RowsParams>(view.requests, 'rows', (params) => params.query.filter.flags.join() === 'noSignal');
        assert.equal(asked.start, 0);
        const expected = file.rows(asked.query, 0, 1_000);
        await view.page.waitForFunction((total) => document.querySelector('.action-bar .scope')?.textContent === `All ${total} matching groups`, expected.total);
        const rows = await shownRows(view);
        assert.ok(rows.length > 0);
        assert.deepEqual(
          rows.map((row) => row[0]),
          expected.rows.slice(0, rows.length).map((row) => String(row.index + 1)),
        );
        assert.ok(
          rows.every((row) => row[9]!.includes('NS')),
          'every row shown carries the flag',
        );
        assert.equal(await view.page.getAttribute('.filter-bar button[data-flag="noSignal"]', 'aria-pressed'), 'true');

        // Pressed again in the filter bar: the filter goes, every group is back.
        await view.page.click('.filter-bar button[data-flag="noSignal"]');
        await view.page.waitForFunction(() => document.querySelector('.action-bar .scope')?.textContent === 'All 600 matching groups');
        await noProblems(view);
      },
    );
  });

  it('a histogram bar clicked adds a removable range filter; a metadata value and a search narrow the query too', async () => {
    const file = generatedFile(300);
    let searchReply: (() => void) | undefined;
    const handlers = fixtureHandlers(() => file, {
      rows: async (params) => {
        const { query, start, count } = params as RowsParams;
        // A search the host takes its time over, reporting how far it has read.
        if (query.filter.text) await new Promise<void>((resolve) => (searchReply = resolve));
        return file.rows(query, start, count);
      },
    });
    await withPage(handlers, async (view) => {
      await view.page.waitForSelector('.grid-rows .grid-row:not(.pending)');
      await view.page.locator('.histogram .bar').last().click();
      const ranged = await requestMatching<RowsParams>(view.requests, 'rows', (params) => params.query.filter.ranges.length === 1);
      assert.deepEqual(ranged.query.filter.ranges, [
        { series: 'reward', min: file.state.statistics.reward.min + 19 * ((file.state.statistics.reward.max - file.state.statistics.reward.min) / 20), max: file.state.statistics.reward.max },
      ]);
      await view.page.waitForSelector('.chip');
      assert.equal(await view.page.locator('.chip > span').first().textContent(), 'reward 0.95 to 1');

      await view.page.selectOption('.metadata-select', { label: 'code (75)' });
      const withMetadata = await requestMatching<RowsParams>(view.requests, 'rows', (params) => params.query.filter.metadata.length === 1);
      assert.deepEqual(withMetadata.query.filter.metadata, [{ key: 'task', value: 'code' }]);
      assert.equal(withMetadata.query.filter.ranges.length, 1);

      await view.page.fill('input.search', 'question 1');
      const searched = await requestMatching<RowsParams>(view.requests, 'rows', (params) => params.query.filter.text === 'question 1');
      assert.equal(searched.query.filter.metadata.length, 1);
      view.push({ type: 'search', text: 'question 1', bytesRead: 300, totalBytes: 1_000 });
      await view.page.waitForSelector('.search-progress:not([hidden])');
      assert.equal(await view.page.locator('.search-box .small').textContent(), 'searching… 30%');
      searchReply?.();
      await view.page.waitForSelector('.search-progress[hidden]', { state: 'attached' });

      // Removing the range chip asks without it; Clear all asks for everything.
      await view.page.locator('.chip', { hasText: 'reward' }).locator('button').click();
      await requestMatching<RowsParams>(view.requests, 'rows', (params) => params.query.filter.ranges.length === 0 && params.query.filter.metadata.length === 1);
      await view.page.click('text=Clear all');
      await view.page.waitForFunction(() => document.querySelector('.action-bar .scope')?.textContent === 'All 300 matching groups');
      assert.equal(await view.page.locator('input.search').inputValue(), '');
      await noProblems(view);
    });
  });

  it('sorts by a column header, the largest first, and reverses on a second click', async () => {
    const file = generatedFile(500);
    await withPage(
      fixtureHandlers(() => file),
      async (view) => {
        await view.page.waitForSelector('.grid-rows .grid-row:not(.pending)');
        await view.page.click('.grid-header .col-std button');
        await requestMatching<RowsParams>(view.requests, 'rows', (params) => params.query.sort.column === 'std' && params.query.sort.descending);
        const expected = file.rows({ filter: { flags: [], ranges: [], metadata: [], text: '' }, sort: { column: 'std', descending: true } }, 0, 5).rows;
        await view.page.waitForFunction((first) => document.querySelector('#group-row-0 .col-index')?.textContent === first, String(expected[0]!.index + 1));
        assert.equal(await view.page.getAttribute('.grid-header .col-std', 'aria-sort'), 'descending');
        await view.page.click('.grid-header .col-std button');
        await requestMatching<RowsParams>(view.requests, 'rows', (params) => params.query.sort.column === 'std' && !params.query.sort.descending);
        await view.page.waitForFunction(() => document.querySelector('.grid-header .col-std')?.getAttribute('aria-sort') === 'ascending');
        await noProblems(view);
      },
    );
  });

  it('opening a group shows its siblings side by side, best first, with signed advantages, diffs against the best and a log-prob heat', async () => {
    const file = generatedFile(50, { siblings: 6 });
    await withPage(
      fixtureHandlers(() => file),
      async (view) => {
        await view.page.waitForSelector('#group-row-4:not(.pending)');
        await view.page.click('#group-row-4 .col-mean');
        await requestMatching<{ index: number }>(view.requests, 'group', (params) => params.index === 4);
        await view.page.waitForSelector('.group-view .trajectory');
        const detail = file.detail(4)!;
        const columns = await view.page.evaluate(() =>
          [...document.querySelectorAll('.group-view .trajectory')].map((column) => ({
            reward: column.querySelector('.figure.reward .figure-value')?.textContent,
            advantage: column.querySelector('.figure.advantage .figure-value')?.textContent,
            advantageClass: column.querySelector('.figure.advantage')?.className,
            top: column.getBoundingClientRect().top,
            left: column.getBoundingClientRect().left,
            trained: column.querySelectorAll('.message.trained .trained-badge').length,
          })),
        );
        assert.equal(columns.length, 6);
        const rewards = columns.map((column) => Number(column.reward));
        assert.deepEqual(
          rewards,
          [...rewards].sort((a, b) => b - a),
          'best reward first',
        );
        assert.deepEqual(
          rewards,
          detail.trajectories.map((trajectory) => Number(trajectory.reward.toPrecision(4))),
        );
        assert.ok(
          columns.every((column) => column.top === columns[0]!.top),
          'side by side',
        );
        assert.ok(columns.every((column, at) => at === 0 || column.left > columns[at - 1]!.left));
        assert.match(columns[0]!.advantage ?? '', /^\+/);
        assert.match(columns[0]!.advantageClass ?? '', /positive/);
        assert.match(columns.at(-1)!.advantage ?? '', /^−/);
        assert.match(columns.at(-1)!.advantageClass ?? '', /negative/);
        assert.ok(columns.every((column) => column.trained === 2));
        assert.equal(
          await view.page
            .locator('#group-row-4')
            .getAttribute('class')
            .then((name) => name?.includes('open')),
          true,
        );

        // Diff mode is on: the siblings other than the best show their spans against it.
        const diff = await view.page.evaluate(() => ({
          best: document.querySelectorAll('.trajectory.best ins, .trajectory.best del').length,
          added: document.querySelectorAll('.trajectory:not(.best) ins.diff-added').length,
          removed: document.querySelectorAll('.trajectory:not(.best) del.diff-removed').length,
        }));
        assert.equal(diff.best, 0);
        assert.ok(diff.added > 0 && diff.removed > 0, JSON.stringify(diff));

        await view.page.click('.mode-switch button[data-mode="heat"]');
        await view.page.waitForSelector('.trajectory .tok');
        const heat = await view.page.evaluate(() => {
          const tokens = [...document.querySelectorAll('.trajectory .message.trained .tok')];
          return { count: tokens.length, levels: new Set(tokens.map((token) => token.className)).size, title: tokens[0]?.getAttribute('title') };
        });
        const expectedTokens = detail.trajectories.reduce((sum, trajectory) => sum + trajectory.messages.reduce((inner, message) => inner + (message.logprobs?.length ?? 0), 0), 0);
        assert.equal(heat.count, expectedTokens);
        assert.ok(heat.levels > 1, 'tokens are tinted by their probability');
        assert.match(heat.title ?? '', /^"Let" · logprob -?[\d.]+ · p [\d.]+$/);

        await view.page.click('.mode-switch button[data-mode="plain"]');
        await view.page.waitForFunction(() => document.querySelectorAll('.trajectory .tok, .trajectory ins').length === 0);

        await view.page.locator('.trajectory').nth(1).locator('button.copy').click();
        await requestMatching<{ index: number; position: number }>(view.requests, 'copyTrajectory', (params) => params.index === 4 && params.position === detail.trajectories[1]!.position);
        await view.page.click('.group-view >> text=Reveal Line');
        await requestMatching<{ line: number }>(view.requests, 'revealLine', (params) => params.line === 4);

        await view.page.keyboard.press('Escape');
        await view.page.waitForSelector('.group-view', { state: 'hidden' });
        await noProblems(view);
      },
    );
  });

  it('a group opened from the rows at the bottom of the window opens where it can be read, its row still in sight', async () => {
    const file = generatedFile(200, { siblings: 4 });
    await withPage(
      fixtureHandlers(() => file),
      async (view) => {
        await view.page.waitForSelector('#group-row-2:not(.pending)');
        // The lowest row of the list that the window shows, as a person clicks it.
        const target = await view.page.evaluate(() => {
          const rows = [...document.querySelectorAll<HTMLElement>('.grid-rows .grid-row:not(.pending)')].filter((row) => row.getBoundingClientRect().bottom <= window.innerHeight);
          const lowest = rows.sort((a, b) => b.getBoundingClientRect().top - a.getBoundingClientRect().top)[0]!;
          return { id: lowest.id, top: lowest.getBoundingClientRect().top };
        });
        assert.ok(target.top > 700 * 0.6, `the row clicked is low in the window (at ${target.top})`);
        await view.page.click(`#${target.id} .col-mean`);
        await view.page.waitForSelector('.group-view .trajectory');
        const after = await view.page.evaluate((id) => {
          const row = document.getElementById(id)!.getBoundingClientRect();
          return { groupViewTop: document.querySelector('.group-view')!.getBoundingClientRect().top, rowTop: row.top, rowBottom: row.bottom, innerHeight: window.innerHeight };
        }, target.id);
        assert.ok(after.groupViewTop > 0 && after.groupViewTop <= after.innerHeight * 0.45 + 1, `the group starts in the upper half of the window (at ${after.groupViewTop} of ${after.innerHeight})`);
        assert.ok(after.rowTop >= 0 && after.rowBottom <= after.groupViewTop, `the opened row stays in sight above it (${after.rowTop}–${after.rowBottom})`);
        await noProblems(view);
      },
      { width: 1000, height: 700 },
    );
  });

  it('a group of 64 siblings with long trained turns: the heat draws a bounded number of tokens and says where it stopped', async () => {
    const file = generatedFile(10, { siblings: 64 });
    const detail = file.detail(2)!;
    // More tokens in all than the page draws (kept small per turn: the harness carries the group slowly).
    const tokensPerTurn = 300;
    assert.ok(64 * 2 * tokensPerTurn > maxHeatTokens);
    for (const trajectory of detail.trajectories) {
      for (const message of trajectory.messages) {
        if (message.logprobs) message.logprobs = Array.from({ length: tokensPerTurn }, (_, at) => ({ token: `t${at} `, logprob: -(at % 7) }));
      }
    }
    await withPage(
      fixtureHandlers(() => file, { group: () => detail }),
      async (view) => {
        await view.page.waitForSelector('#group-row-2:not(.pending)');
        await view.page.click('#group-row-2 .col-mean');
        await view.page.waitForSelector('.group-view .trajectory');
        assert.equal(await view.page.locator('.group-view .trajectory').count(), 64);
        await view.page.click('.mode-switch button[data-mode="heat"]');
        await view.page.waitForSelector('.trajectory .tok');
        const seen = await view.page.evaluate(() => ({
          tokens: document.querySelectorAll('.trajectory .tok').length,
          notes: [...document.querySelectorAll('.trajectory .note')].filter((note) => note.textContent?.startsWith('Log-probabilities not drawn here')).length,
        }));
        const drawnTurns = Math.floor(maxHeatTokens / tokensPerTurn);
        assert.equal(seen.tokens, drawnTurns * tokensPerTurn);
        assert.equal(seen.notes, 64 * 2 - drawnTurns, 'every trained turn not drawn says so');
        await noProblems(view);
      },
    );
  });

  it('text from the file (markup, scripts) shows as text: in the list, the problems (each revealing its line) and an opened group', async () => {
    const file = generatedFile(20, { hostile: true });
    await withPage(
      fixtureHandlers(() => file),
      async (view) => {
        await view.page.waitForSelector('#group-row-1:not(.pending)');
        assert.match((await view.page.locator('#group-row-1 .col-metadata').textContent()) ?? '', /note=<img src=x onerror="window.__pwned=1"><b>bold<\/b>/);
        await view.page.click('.problems summary');
        assert.equal(await view.page.locator('.problems li').first().textContent(), `line 4 Unexpected token ${hostileText}`);
        await view.page.click('.problems button.problem-line');
        await requestMatching<{ line: number }>(view.requests, 'revealLine', (params) => params.line === 3);
        await view.page.click('#group-row-1 .col-mean');
        await view.page.waitForSelector('.group-view .trajectory');
        const seen = await view.page.evaluate(() => ({
          images: document.querySelectorAll('img').length,
          bold: document.querySelectorAll('b').length,
          pwned: (window as unknown as { __pwned?: number }).__pwned,
          user: document.querySelector('.trajectory .message.role-user .message-body')?.textContent,
        }));
        assert.deepEqual(seen, { images: 0, bold: 0, pwned: undefined, user: `Question 1: ${hostileText}` });
        await noProblems(view);
      },
    );
  });

  it('keyboard: arrows move, Space selects, Enter opens, Escape closes; actions go to the selection, or to every matching group', async () => {
    const file = generatedFile(200);
    await withPage(
      fixtureHandlers(() => file),
      async (view) => {
        await view.page.waitForSelector('.grid-rows .grid-row:not(.pending)');
        await view.page.click('text=Create Training Job…');
        const all = await requestMatching<{ scope: GroupScope }>(view.requests, 'createJob', () => true);
        assert.equal(all.scope.kind, 'matching');

        await view.page.focus('.grid');
        await view.page.keyboard.press('ArrowDown');
        await view.page.keyboard.press('ArrowDown');
        await view.page.keyboard.press('Space');
        await view.page.waitForSelector('#group-row-2[aria-selected="true"]');
        assert.equal(await view.page.getAttribute('.grid', 'aria-activedescendant'), 'group-row-2');
        await view.page.click('#group-row-5 .col-mean', { modifiers: ['Control'] });
        await view.page.waitForSelector('#group-row-5[aria-selected="true"]');
        assert.equal(await view.page.locator('.action-bar .scope').textContent(), '2 groups selected');
        await view.page.click('text=Export…');
        const picked = await requestMatching<{ scope: GroupScope }>(view.requests, 'exportGroups', () => true);
        assert.deepEqual(picked.scope, { kind: 'selected', indices: [2, 5] });

        // Shift-click selects the range from the last row picked.
        await view.page.click('#group-row-9 .col-mean', { modifiers: ['Shift'] });
        await view.page.waitForFunction(() => document.querySelector('.action-bar .scope')?.textContent === '5 groups selected');
        await view.page.click('text=Log to Model…');
        const ranged = await requestMatching<{ scope: GroupScope }>(view.requests, 'logToModel', () => true);
        assert.deepEqual(ranged.scope, { kind: 'selected', indices: [5, 6, 7, 8, 9] });

        await view.page.focus('.grid');
        await view.page.keyboard.press('Enter');
        await requestMatching<{ index: number }>(view.requests, 'group', (params) => params.index === 9);
        await view.page.waitForSelector('.group-view .trajectory');
        await view.page.keyboard.press('Escape');
        await view.page.waitForSelector('.group-view', { state: 'hidden' });

        await view.page.hover('#group-row-3');
        await view.page.click('#group-row-3 button.reveal');
        await requestMatching<{ line: number }>(view.requests, 'revealLine', (params) => params.line === 3);
        await view.page.click('text=Clear selection');
        await view.page.waitForFunction(() => document.querySelector('.action-bar .scope')?.textContent === 'All 200 matching groups');
        await noProblems(view);
      },
    );
  });
});
