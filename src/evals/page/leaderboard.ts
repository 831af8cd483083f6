/**
 * The leaderboard: one row per model, best mean first, its 95 % confidence interval drawn as a
 * bar with whiskers on a scale shared by every row (so overlapping intervals read as a tie), the
 * answers scored and failed, and on a checkpoint's row the buttons that ship it.
 */
import type { EvalModelRef, LeaderboardRow } from '../model/evalModel';
import { crownedBest } from '../model/statistics';
import { button, h } from '../../platform/pages/page/dom';
import { formatCount } from '../../platform/kit/format';
import { formatScore, modelLabel } from './labels';

export interface LeaderboardEvents {
  useModel(model: string): void;
  deleteOthers(keep: string): void;
}

/** Best mean first; ties by the narrower interval, then by the later step. */
export function rankRows(rows: readonly LeaderboardRow[]): LeaderboardRow[] {
  return [...rows].sort((a, b) => b.mean - a.mean || a.high - a.low - (b.high - b.low) || (b.step ?? -1) - (a.step ?? -1));
}

export class Leaderboard {
  readonly element: HTMLElement;
  private readonly body = h('tbody');
  private readonly scale = h('span', { class: 'ci-scale muted small' });
  private readonly lead = h('p', { class: 'lead-note muted', hidden: true });

  constructor(private readonly events: LeaderboardEvents) {
    const head = h(
      'tr',
      {},
      h('th', { class: 'col-model' }, 'Model'),
      h('th', { class: 'numeric', title: 'Mean of the primary scorer over every scored answer' }, 'Mean'),
      h('th', { class: 'col-ci', title: 'The 95 % confidence interval of the mean, on a scale shared by every row' }, '95 % CI ', this.scale),
      h('th', { class: 'numeric', title: 'Answers scored' }, 'Scored'),
      h('th', { class: 'numeric', title: 'Answers that failed (no answer, or the primary scorer could not score it)' }, 'Failed'),
      h('th', { class: 'col-actions' }, h('span', { class: 'visually-hidden' }, 'Actions')),
    );
    const table = h('table', { class: 'leaderboard' }, h('thead', {}, head), this.body);
    this.element = h('section', { class: 'panel leaderboard-panel', ariaLabel: 'Leaderboard' }, h('h2', {}, 'Leaderboard'), table, this.lead);
  }

  render(rows: readonly LeaderboardRow[], models: readonly EvalModelRef[], canPromote: boolean, primary: string, gone: ReadonlySet<string> = new Set()): void {
    const ranked = rankRows(rows);
    const byId = new Map(models.map((model) => [model.id, model]));
    const finite = ranked.filter((row) => Number.isFinite(row.low) && Number.isFinite(row.high));
    let min = Math.min(...finite.map((row) => row.low));
    let max = Math.max(...finite.map((row) => row.high));
    if (!finite.length) [min, max] = [0, 1];
    const pad = Math.max((max - min) * 0.08, 0.02);
    min = Math.max(0, min - pad);
    max = Math.min(1, max + pad);
    if (max <= min) [min, max] = [0, 1];
    this.scale.textContent = `${formatScore(min)}–${formatScore(max)}`;
    const at = (value: number) => `${(100 * (Math.max(min, Math.min(max, value)) - min)) / (max - min)}%`;
    const best = crownedBest(ranked);
    this.body.replaceChildren(
      ...ranked.map((row) => {
        const model = byId.get(row.model);
        const label = model ? modelLabel(model) : row.label;
        const isBest = row === best;
        const deleted = gone.has(row.model);
        const tr = h('tr', { class: [isBest ? 'best' : '', deleted ? 'deleted' : ''].filter(Boolean).join(' '), data: { model: row.model } });
        const name = h('td', { class: 'col-model', title: row.model }, label);
        if (isBest) name.append(h('span', { class: 'badge best-badge', title: `The highest mean ${primary}` }, 'best'));
        if (deleted) name.append(h('span', { class: 'badge deleted-badge', title: 'The platform no longer lists this checkpoint' }, 'deleted'));
        tr.append(name, h('td', { class: 'numeric mean' }, formatScore(row.mean, 3)));
        const track = h('div', { class: 'ci-track', title: `${label}: mean ${formatScore(row.mean, 3)}, 95 % CI ${formatScore(row.low, 3)} to ${formatScore(row.high, 3)}` });
        if (row.scored > 0 && Number.isFinite(row.low) && Number.isFinite(row.high)) {
          const bar = h('div', { class: 'ci-bar' });
          bar.style.left = at(row.low);
          bar.style.width = `calc(${at(row.high)} - ${at(row.low)})`;
          const low = h('div', { class: 'ci-whisker low' });
          low.style.left = at(row.low);
          const high = h('div', { class: 'ci-whisker high' });
          high.style.left = at(row.high);
          const mean = h('div', { class: 'ci-mean' });
          mean.style.left = at(row.mean);
          track.append(bar, low, high, mean);
        }
        tr.append(
          h('td', { class: 'col-ci' }, track),
          h('td', { class: 'numeric' }, formatCount(row.scored)),
          h('td', { class: `numeric${row.failed ? ' has-failed' : ''}` }, formatCount(row.failed)),
        );
        const actions = h('td', { class: 'col-actions' });
        if (canPromote && model?.kind === 'checkpoint') {
          const short = model.step !== undefined ? `step ${model.step}` : label;
          actions.append(
            button(`Use ${short}`, () => this.events.useModel(row.model), {
              title: deleted ? `${short} was deleted` : `Copy its id, pin it in the chat and the model picker, and make it the chat's default model`,
              class: isBest ? 'primary' : 'secondary',
            }),
            button('Delete the others', () => this.events.deleteOthers(row.model), {
              title: deleted ? `${short} was deleted` : `Delete the checkpoints this evaluation scored below ${short}; the best, the latest and every step it did not score stay (asks first)`,
              ariaLabel: `Delete the others, keeping ${short}`,
            }),
          );
          if (deleted) for (const control of actions.querySelectorAll('button')) control.disabled = true;
        }
        tr.append(actions);
        return tr;
      }),
    );
    this.renderLead(
      ranked.filter((row) => row.scored > 0),
      byId,
    );
  }

  /** Whether the best model's lead is more than the noise of the sample: its interval against the runner-up's. */
  private renderLead(scored: LeaderboardRow[], byId: Map<string, EvalModelRef>): void {
    const [first, second] = scored;
    this.lead.hidden = !first || !second;
    if (!first || !second) return;
    const name = (row: LeaderboardRow) => {
      const model = byId.get(row.model);
      return model ? modelLabel(model) : row.label;
    };
    this.lead.textContent =
      first.low > second.high
        ? `${name(first)} leads ${name(second)} beyond both 95 % intervals.`
        : `The intervals of ${name(first)} and ${name(second)} overlap: the lead may be noise; more samples or draws would tell.`;
  }
}
