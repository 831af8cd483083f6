/**
 * The reward trial's page, its real bundle in chromium under the editor's policy, with the editor
 * played in Node: the figures, the groups by disagreement, a group's trajectories, and that an
 * answer from the file stays text.
 */
import assert from 'node:assert/strict';
import { RpcEndpoint, type Handlers } from '../../../src/platform/pages/rpc';
import type { NoMethods } from '../../../src/platform/pages/wire';
import { ComparisonBuilder, type ComparedTrajectory } from '../../../src/rollouts/model/rewardComparison';
import type { RewardTrialHostMethods, RewardTrialView } from '../../../src/rollouts/protocol';
import { chromiumPageSuite, openWebviewPage, startPageServer } from '../platform/pages/browserHarness';
import { hostileText } from './pageFixtures';

function trajectories(before: number[], after: number[], answers: string[] = []): ComparedTrajectory[] {
  return before.map((reward, at) => ({ answer: answers[at] ?? `answer ${at}`, omittedChars: 0, before: reward, after: after[at]! }));
}

function trialView(): RewardTrialView {
  const builder = new ComparisonBuilder();
  builder.add(0, 0, trajectories([1, 0], [1, 0]));
  builder.add(1, 1, trajectories([0.5, 0.5], [1, 0], [hostileText, '5']));
  return { fileName: 'step-3.trajectories.jsonl', reward: 'exact match against metadata.answer', result: { ...builder.result(), unreadable: 0, problems: [] } };
}

describe('reward trial page in a real browser', function () {
  this.timeout(60_000);
  const chromium = chromiumPageSuite('the reward trial page tests', () => startPageServer('rewardTrial'));

  it('shows the figures, the groups by disagreement and the first group, with answers as text; a click asks to open a group', async () => {
    let groupOpened!: (index: number) => void;
    const opened = new Promise<number>((resolve) => (groupOpened = resolve));
    const handlers: Handlers<RewardTrialHostMethods> = {
      ready: () => trialView(),
      openGroup: (params) => {
        groupOpened((params as { index: number }).index);
        return null;
      },
    };
    let channel!: RpcEndpoint<NoMethods, RewardTrialHostMethods, never, never>;
    const view = await openWebviewPage(chromium.browser, chromium.url, (post) => {
      channel = new RpcEndpoint<NoMethods, RewardTrialHostMethods, never, never>({ post, handlers });
      return (message) => channel.receive(message);
    });
    try {
      await view.page.waitForSelector('.trial-detail table');
      const seen = await view.page.evaluate(() => ({
        title: document.querySelector('h1')?.textContent,
        figures: [...document.querySelectorAll('.figures tbody tr')].map((row) => [...row.children].map((cell) => cell.textContent)),
        groups: [...document.querySelectorAll('.groups tbody tr')].map((row) => [...row.children].map((cell) => cell.textContent)),
        detail: document.querySelector('.trial-detail h2')?.textContent,
        answers: [...document.querySelectorAll('.trial-detail .answer pre')].map((pre) => pre.textContent),
        images: document.querySelectorAll('img').length,
        pwned: (window as unknown as { __pwned?: number }).__pwned,
      }));
      assert.equal(seen.title, 'Reward trial: step-3.trajectories.jsonl');
      assert.deepEqual(seen.figures, [
        ['Groups with signal', '1 (50.0 %)', '2 (100.0 %)'],
        ['Mean reward', '0.500', '0.500'],
      ]);
      // The group that gains its signal first, then the one where both rewards agree.
      assert.deepEqual(
        seen.groups.map((row) => [row[0], row[3], row[4]]),
        [
          ['2', 'gains signal', '1.00'],
          ['1', 'signal both', '0.00'],
        ],
      );
      assert.equal(seen.detail, 'Group 2');
      assert.deepEqual(seen.answers, [hostileText, '5']);
      assert.equal(seen.images, 0);
      assert.equal(seen.pwned, undefined);
      await view.page.click('.trial-detail button');
      assert.equal(await opened, 1);
      assert.deepEqual(view.problems, []);
    } finally {
      await view.page.context().close();
    }
  });
});
