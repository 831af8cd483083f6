/**
 * The rollout inspector page told from outside to open a group (a reward trial's group): it opens
 * that group as a click on its row would, and ignores an index that is no position.
 */
import assert from 'node:assert/strict';
import { generatedFile } from './pageFixtures';
import { fixtureHandlers, rolloutsPageSuite } from './pageHarness';
import { requestMatching } from './waitFor';

describe('rollout inspector page: a group revealed from outside', function () {
  this.timeout(60_000);
  const { withPage } = rolloutsPageSuite();

  it('opens the group it is told to, and ignores an index that is no position', async () => {
    const file = generatedFile(500);
    await withPage(
      fixtureHandlers(() => file),
      async (view) => {
        await view.page.waitForSelector('.grid-rows .grid-row:not(.pending)');
        view.push({ type: 'reveal', index: -1 });
        view.push({ type: 'reveal', index: 1.5 });
        view.push({ type: 'reveal', index: 321 });
        await requestMatching<{ index: number }>(view.requests, 'group', (params) => params.index === 321);
        assert.deepEqual(
          view.requests.filter((request) => request.method === 'group').map((request) => (request.params as { index: number }).index),
          [321],
        );
        assert.deepEqual(view.problems, []);
      },
    );
  });
});
