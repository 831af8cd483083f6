/**
 * The reward trial's page: the figures over the file, the groups that disagree most (old and new
 * reward spread, signal change), and one group's trajectories side by side (answer, old and new
 * reward, advantages before and after). Everything from the file goes in as text.
 */
import { button, h } from '../../../platform/pages/page/dom';
import { RpcEndpoint } from '../../../platform/pages/rpc';
import type { WebviewApi } from '../../../platform/pages/page/webviewApi';
import type { NoMethods } from '../../../platform/pages/wire';
import type { GroupComparison } from '../../model/rewardComparison';
import type { RewardTrialHostMethods, RewardTrialView } from '../../protocol';

type Host = RpcEndpoint<RewardTrialHostMethods, NoMethods, never, never>;

const percent = (part: number, whole: number): string => (whole === 0 ? '–' : `${((100 * part) / whole).toFixed(1)} %`);
const number = (value: number | null, digits = 3): string => (value === null ? '–' : value.toFixed(digits));
const signed = (value: number | null): string => (value === null ? '–' : `${value >= 0 ? '+' : ''}${value.toFixed(2)}`);

export class RewardTrialPage {
  private readonly host: Host;
  private view: RewardTrialView | undefined;
  private readonly detail = h('section', { class: 'trial-detail', ariaLabel: 'Group detail' });

  constructor(
    private readonly app: HTMLElement,
    private readonly api: WebviewApi<{ openGroup?: number }>,
  ) {
    this.host = new RpcEndpoint<RewardTrialHostMethods, NoMethods, never, never>({ post: (message) => api.postMessage(message), handlers: {} });
  }

  receive(message: unknown): void {
    this.host.receive(message);
  }

  async load(): Promise<void> {
    this.view = await this.host.request('ready', {});
    this.render(this.view);
  }

  private render(view: RewardTrialView): void {
    const { totals } = view.result;
    const header = h(
      'header',
      { class: 'page-header' },
      h('h1', {}, `Reward trial: ${view.fileName}`),
      h('p', { class: 'facts' }, `New reward: ${view.reward}. Old reward: the "reward" each trajectory holds. Each trajectory's final assistant answer is scored.`),
      view.result.stoppedEarly ? h('p', { class: 'problem' }, `Not the whole file: ${view.result.stoppedEarly}.`) : null,
    );
    const figure = (label: string, before: string, after: string): HTMLElement => h('tr', {}, h('th', { class: 'label' }, label), h('td', {}, before), h('td', {}, after));
    const figures = h(
      'table',
      { class: 'figures' },
      h('thead', {}, h('tr', {}, h('th', {}, ''), h('th', {}, 'old reward'), h('th', {}, 'new reward'))),
      h(
        'tbody',
        {},
        figure(
          'Groups with signal',
          `${totals.signalBefore} (${percent(totals.signalBefore, totals.groupsCompared)})`,
          `${totals.signalAfter} (${percent(totals.signalAfter, totals.groupsCompared)})`,
        ),
        figure('Mean reward', number(totals.meanBefore), number(totals.meanAfter)),
      ),
    );
    const facts = h(
      'ul',
      { class: 'facts-list' },
      h('li', {}, `${totals.groups.toLocaleString('en-US')} groups, ${totals.trajectories.toLocaleString('en-US')} trajectories, ${totals.compared.toLocaleString('en-US')} with both rewards`),
      h('li', {}, `Groups gaining signal: ${totals.gainedSignal}; losing it: ${totals.lostSignal}`),
      h('li', {}, `Correlation of old and new rewards (Pearson, over trajectories): ${number(totals.correlation, 2)}`),
      totals.withoutOldReward > 0 ? h('li', {}, `${totals.withoutOldReward} trajectories have no old reward`) : null,
      totals.notScored > 0 ? h('li', {}, `${totals.notScored} answers got no new score: ${totals.scoreErrors.map((error) => `${error.message} (${error.count})`).join('; ')}`) : null,
      view.result.unreadable > 0
        ? h('li', {}, `${view.result.unreadable} groups could not be read${view.result.problems[0] ? `, first at line ${view.result.problems[0].line + 1}: ${view.result.problems[0].message}` : ''}`)
        : null,
    );
    const explanation = h(
      'p',
      { class: 'muted' },
      'Advantage: (reward − group mean) ÷ the group’s standard deviation, as GRPO normalizes it; 0 when all rewards of the group are equal (no signal). ' +
        'Disagreement: the mean, over a group’s trajectories, of how far that advantage moved. Groups are sorted by it, most first.',
    );
    const table = this.groupTable(view);
    this.app.replaceChildren(header, h('div', { class: 'trial-summary' }, figures, facts), explanation, h('div', { class: 'trial-body' }, table, this.detail));
    const saved = this.api.getState()?.openGroup;
    const first = view.result.groups.find((group) => group.index === saved) ?? view.result.groups[0];
    if (first) this.showGroup(first);
  }

  private groupTable(view: RewardTrialView): HTMLElement {
    const rows = view.result.groups.map((group) => {
      const row = h(
        'tr',
        { class: 'group-row', data: { index: String(group.index) } },
        h('td', {}, String(group.index + 1)),
        h('td', {}, `${number(group.meanBefore, 2)} ± ${number(group.spreadBefore, 2)}`),
        h('td', {}, `${number(group.meanAfter, 2)} ± ${number(group.spreadAfter, 2)}`),
        h('td', { class: 'signal' }, signalChange(group)),
        h('td', {}, number(group.disagreement, 2)),
        h('td', {}, number(group.rankCorrelation, 2)),
      );
      row.tabIndex = 0;
      row.addEventListener('click', () => this.showGroup(group));
      row.addEventListener('keydown', (event) => {
        if (event.key === 'Enter') this.showGroup(group);
      });
      return row;
    });
    const more = view.result.groupsNotKept > 0 ? h('p', { class: 'muted' }, `${view.result.groupsNotKept.toLocaleString('en-US')} groups that disagree less are not listed.`) : null;
    return h(
      'section',
      { class: 'trial-groups', ariaLabel: 'Groups by disagreement' },
      h(
        'table',
        { class: 'groups' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            h('th', {}, 'Group'),
            h('th', { title: 'mean ± spread (highest − lowest)' }, 'Old'),
            h('th', { title: 'mean ± spread (highest − lowest)' }, 'New'),
            h('th', {}, 'Signal'),
            h('th', {}, 'Disagreement'),
            h('th', { title: 'Spearman rank correlation within the group' }, 'Rank corr.'),
          ),
        ),
        h('tbody', {}, ...rows),
      ),
      more,
    );
  }

  private showGroup(group: GroupComparison): void {
    this.api.setState({ openGroup: group.index });
    for (const row of this.app.querySelectorAll<HTMLElement>('.group-row')) row.classList.toggle('selected', row.dataset.index === String(group.index));
    const rows = group.kept.map((trajectory, at) =>
      h(
        'tr',
        {},
        h('td', {}, String(at + 1)),
        h('td', { class: 'answer' }, h('pre', {}, trajectory.answer), trajectory.omittedChars > 0 ? h('span', { class: 'muted' }, `… ${trajectory.omittedChars} more characters`) : null),
        h('td', {}, number(trajectory.before, 2)),
        h('td', { title: trajectory.error ?? '' }, trajectory.after === null ? `– ${trajectory.error ?? ''}` : number(trajectory.after, 2)),
        h('td', {}, signed(trajectory.advantageBefore)),
        h('td', {}, signed(trajectory.advantageAfter)),
      ),
    );
    this.detail.replaceChildren(
      h('h2', {}, `Group ${group.index + 1}`),
      h('p', { class: 'facts' }, `${group.trajectories} trajectories${group.trajectories > group.kept.length ? `, the first ${group.kept.length} shown` : ''}; ${signalChange(group)}.`),
      button('Open in Rollout Inspector', () => void this.host.request('openGroup', { index: group.index }), { title: 'Open the file in the rollout inspector' }),
      h(
        'table',
        { class: 'trajectories' },
        h('thead', {}, h('tr', {}, h('th', {}, '#'), h('th', {}, 'Final answer'), h('th', {}, 'Old'), h('th', {}, 'New'), h('th', {}, 'Adv. before'), h('th', {}, 'Adv. after'))),
        h('tbody', {}, ...rows),
      ),
    );
  }
}

function signalChange(group: GroupComparison): string {
  if (group.compared < 2) return 'too few rewards';
  if (group.signalBefore === group.signalAfter) return group.signalAfter ? 'signal both' : 'no signal either';
  return group.signalAfter ? 'gains signal' : 'loses signal';
}
