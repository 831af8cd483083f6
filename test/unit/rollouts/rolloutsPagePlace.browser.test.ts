/**
 * The rollout inspector page with a large file and a file that changes: only a screen of rows ever
 * exists, and the page keeps its place (scroll, selection, open group, query) when the file grows
 * and when the page is loaded again.
 */
import assert from 'node:assert/strict';
import type { GroupQuery } from '../../../src/rollouts/model/inspectorModel';
import { rowHeight } from '../../../src/rollouts/page/groupList';
import { generatedFile, type FixtureFile } from './pageFixtures';
import { fixtureHandlers, rolloutsPageSuite } from './pageHarness';
import { requestMatching } from './waitFor';

type RowsParams = { query: GroupQuery; start: number; count: number };

describe('rollout inspector page: large files and kept place', function () {
  this.timeout(90_000);
  const { withPage } = rolloutsPageSuite();

  it('100,000 groups: the DOM holds about a screen of rows wherever the list is scrolled, and the rows shown are the ones there', async () => {
    const file = generatedFile(100_000);
    await withPage(
      fixtureHandlers(() => file),
      async (view) => {
        await view.page.waitForSelector('.grid-rows .grid-row:not(.pending)');
        const limit = await view.page.evaluate((height) => Math.ceil(document.querySelector('.grid')!.clientHeight / height) + 2 + 2 * 10, rowHeight);
        assert.equal(await view.page.getAttribute('.grid', 'aria-rowcount'), '100001');
        // A sweep from top to bottom one frame per stop, then a few places to stay at.
        const swept = await view.page.evaluate(async () => {
          const grid = document.querySelector('.grid') as HTMLElement;
          let most = 0;
          for (let step = 0; step <= 60; step++) {
            grid.scrollTop = (step / 60) * (grid.scrollHeight - grid.clientHeight);
            await new Promise((resolve) => requestAnimationFrame(resolve));
            most = Math.max(most, document.querySelectorAll('.grid-rows .grid-row').length);
          }
          return most;
        });
        assert.ok(swept <= limit, `rows in the DOM while sweeping: ${swept} (at most ${limit})`);
        const sweepRequests = view.requests.filter((request) => request.method === 'rows').length;
        assert.ok(sweepRequests < 61, `pages passed while scrolling are not all asked for: ${sweepRequests} requests for 61 stops`);
        for (const position of [50_000, 99_990, 1_234]) {
          await view.page.evaluate(({ top }) => ((document.querySelector('.grid') as HTMLElement).scrollTop = top), { top: position * rowHeight });
          await view.page.waitForSelector(`#group-row-${position}:not(.pending)`);
          const seen = await view.page.evaluate(() => ({
            rows: document.querySelectorAll('.grid-rows .grid-row').length,
            first: [...document.querySelectorAll('.grid-rows .grid-row:not(.pending)')].map((row) => Number(row.querySelector('.col-index')!.textContent!.replace(/,/g, ''))).sort((a, b) => a - b),
          }));
          assert.ok(seen.rows <= limit, `rows in the DOM at ${position}: ${seen.rows}`);
          assert.ok(seen.first.includes(position + 1), `row ${position + 1} is on screen`);
          assert.ok(
            seen.first.every((shown) => Math.abs(shown - 1 - position) <= limit),
            'only rows near the place are drawn',
          );
        }
        assert.deepEqual(view.problems, []);
      },
    );
  });

  it('a state with a new version: the rows on screen are asked again and redrawn, scroll, selection and the open group stay', async () => {
    let file: FixtureFile = generatedFile(5_000);
    await withPage(
      fixtureHandlers(() => file),
      async (view) => {
        await view.page.waitForSelector('.grid-rows .grid-row:not(.pending)');
        const top = 2_000 * rowHeight;
        await view.page.evaluate((at) => ((document.querySelector('.grid') as HTMLElement).scrollTop = at), top);
        await view.page.waitForSelector('#group-row-2003:not(.pending)');
        await view.page.click('#group-row-2003 .col-mean', { modifiers: ['Control'] });
        await view.page.click('#group-row-2005 .col-mean', { modifiers: ['Control'] });
        await view.page.click('#group-row-2004 .col-mean');
        await view.page.waitForSelector('.group-view .trajectory');
        const before = view.requests.length;

        // The file grew: the host's rows now say so in their metadata.
        const grown = generatedFile(5_200, { version: 2 });
        file = {
          ...grown,
          rows: (query, start, count) => {
            const page = grown.rows(query, start, count);
            return { ...page, rows: page.rows.map((row) => ({ ...row, metadata: { ...row.metadata, split: 'grown' } })) };
          },
        };
        view.push({ type: 'state', state: grown.state });
        await requestMatching<RowsParams>(view.requests, 'rows', (params) => params.start <= 2_004 && params.start + params.count > 2_004, before);
        await view.page.waitForFunction(() => document.querySelector('#group-row-2004 .col-metadata')?.textContent?.includes('split=grown'));
        const seen = await view.page.evaluate(() => ({
          scrollTop: (document.querySelector('.grid') as HTMLElement).scrollTop,
          selected: [...document.querySelectorAll('.grid-row[aria-selected="true"]')].map((row) => row.id).sort(),
          open: document.querySelector('.group-head h2')?.textContent,
          openRow: document.querySelector('.grid-row.open')?.id,
          facts: document.querySelector('.page-header .facts')?.textContent,
          rowcount: document.querySelector('.grid')?.getAttribute('aria-rowcount'),
        }));
        assert.deepEqual(seen, {
          scrollTop: top,
          selected: ['group-row-2003', 'group-row-2005'],
          open: 'Group #2,005',
          openRow: 'group-row-2004',
          facts: '5,200 groups · 41,600 trajectories · JSON Lines',
          rowcount: '5201',
        });
        assert.deepEqual(view.problems, []);
      },
    );
  });

  it('loaded again, the page comes back to its query, scroll, selection and open group from the saved state', async () => {
    const file = generatedFile(3_000);
    await withPage(
      fixtureHandlers(() => file),
      async (view) => {
        // What VS Code does across an unload: the state set is given back to the next load.
        await view.page.addInitScript(() => {
          const w = window as unknown as { acquireVsCodeApi(): { getState(): unknown; setState(state: unknown): void; postMessage(message: unknown): void } };
          const original = w.acquireVsCodeApi;
          w.acquireVsCodeApi = () => {
            const api = original();
            return {
              postMessage: (message: unknown) => api.postMessage(message),
              getState: () => JSON.parse(sessionStorage.getItem('rollouts-state') ?? 'null') ?? undefined,
              setState: (state: unknown) => sessionStorage.setItem('rollouts-state', JSON.stringify(state)),
            };
          };
        });
        await view.page.reload();
        await view.page.waitForSelector('.grid-rows .grid-row:not(.pending)');
        await view.page.click('.grid-header .col-max button');
        await view.page.waitForFunction(() => document.querySelector('.grid-header .col-max')?.getAttribute('aria-sort') === 'descending');
        await view.page.waitForSelector('#group-row-0:not(.pending)');
        await view.page.evaluate((at) => ((document.querySelector('.grid') as HTMLElement).scrollTop = at), 700 * rowHeight);
        await view.page.waitForSelector('#group-row-702:not(.pending)');
        await view.page.click('#group-row-702 .col-mean', { modifiers: ['Control'] });
        await view.page.click('#group-row-703 .col-mean');
        await view.page.waitForSelector('.group-view .trajectory');
        const openTitle = await view.page.locator('.group-head h2').textContent();
        const selectedIndex = await view.page.locator('#group-row-702 .col-index').textContent();
        await view.page.waitForFunction(() => JSON.parse(sessionStorage.getItem('rollouts-state') ?? 'null')?.openGroup !== undefined);

        const before = view.requests.length;
        await view.page.reload();
        await view.page.waitForSelector('.group-view .trajectory');
        await view.page.waitForSelector('#group-row-702:not(.pending)');
        const firstRows = view.requests.slice(before).find((request) => request.method === 'rows')!.params as RowsParams;
        assert.deepEqual(firstRows.query.sort, { column: 'max', descending: true });
        assert.ok(firstRows.start <= 700 && firstRows.start + firstRows.count > 700, 'the first rows asked are those of the place kept');
        const seen = await view.page.evaluate(() => ({
          scrollTop: (document.querySelector('.grid') as HTMLElement).scrollTop,
          selected: [...document.querySelectorAll('.grid-row[aria-selected="true"] .col-index')].map((cell) => cell.textContent),
          open: document.querySelector('.group-head h2')?.textContent,
          sort: document.querySelector('.grid-header .col-max')?.getAttribute('aria-sort'),
        }));
        assert.deepEqual(seen, { scrollTop: 700 * rowHeight, selected: [selectedIndex], open: openTitle, sort: 'descending' });
        assert.deepEqual(view.problems, []);
      },
    );
  });
});
