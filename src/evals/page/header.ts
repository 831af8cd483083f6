/**
 * The report's header: the eval set and its size, the models, the scorers, the sampling, and while
 * the run goes its progress (done, total, failed), the platform's slowdown and a Cancel button;
 * how many answers came with the file rather than from a run here; the answers still loading.
 */
import type { ProvenanceView, ReportSnapshot, RunProgress } from '../protocol';
import { button, h } from '../../platform/pages/page/dom';
import { formatCount, plural } from '../../platform/kit/format';
import { modelLabel } from './labels';

export class Header {
  readonly element = h('header', { class: 'page-header' });
  private readonly title = h('h1');
  private readonly facts = h('div', { class: 'facts' });
  private readonly models = h('div', { class: 'fact-row' });
  private readonly scorers = h('div', { class: 'fact-row' });
  private readonly parameters = h('div', { class: 'fact-row' });
  private readonly progressRow = h('div', { class: 'progress-row', hidden: true });
  private readonly provenance = h('p', { class: 'provenance-note', hidden: true });
  private readonly loading = h('p', { class: 'loading-note muted small', hidden: true });
  private readonly bar = h('progress', { class: 'run-progress' });
  private readonly counts = h('span', { class: 'counts' });
  private readonly rateLimit = h('span', { class: 'rate-limited', hidden: true });
  private readonly cancelButton: HTMLButtonElement;
  private rateTimer: ReturnType<typeof setInterval> | undefined;
  private rateUntil = 0;

  constructor(cancel: () => void) {
    this.bar.setAttribute('aria-label', 'Answers of the run');
    this.cancelButton = button(
      'Cancel',
      () => {
        this.cancelButton.disabled = true;
        cancel();
      },
      { title: 'Stop the run: answers already in are kept in the results file, the rest are asked by the next run' },
    );
    this.rateLimit.setAttribute('role', 'status');
    this.provenance.setAttribute('role', 'note');
    this.loading.setAttribute('role', 'status');
    this.progressRow.append(this.bar, this.counts, this.rateLimit, this.cancelButton);
    this.element.append(this.title, this.facts, this.provenance, this.models, this.scorers, this.parameters, this.progressRow, this.loading);
  }

  render(snapshot: ReportSnapshot, sampleCount: number): void {
    const { run } = snapshot;
    const setName = run.set.path.split(/[\\/]/).pop() || run.set.path;
    this.title.textContent = setName;
    this.title.title = `${run.set.path}\nresults: ${snapshot.fileName}`;
    document.title = `${setName} · evaluation`;
    this.facts.textContent = [plural(Math.max(run.set.samples, sampleCount), 'sample'), plural(run.models.length, 'model'), `updated ${run.updatedAt.replace('T', ' ').slice(0, 16)}`].join(' · ');
    this.models.replaceChildren(h('span', { class: 'fact-label' }, 'Models'), ...run.models.map((model) => h('span', { class: `chip model-${model.kind}`, title: model.id }, modelLabel(model))));
    this.scorers.replaceChildren(
      h('span', { class: 'fact-label' }, 'Scorers'),
      ...run.scorers.map((scorer) => {
        const primary = scorer.name === snapshot.primaryScorer ? ': the leaderboard ranks by this one' : '';
        if (scorer.spec.kind !== 'command') return h('span', { class: `chip${primary ? ' primary' : ''}`, title: `${scorer.spec.kind}${primary}` }, scorer.name);
        // A program of this machine scores these answers: said on the chip itself, with what runs.
        const program = [scorer.spec.command, ...(scorer.spec.args ?? [])].map((part) => JSON.stringify(part)).join(' ');
        return h(
          'span',
          { class: `chip program${primary ? ' primary' : ''}`, title: `Runs a program on this machine${primary}: ${program}. It runs only when you chose it, or allowed it when asked.` },
          h('span', { class: 'program-mark' }, 'program'),
          ' ',
          scorer.name,
        );
      }),
    );
    const p = run.parameters;
    const parts = [`temperature ${p.temperature}`, `seed ${p.seed}`, `n ${p.n}`, `max tokens ${formatCount(p.maxTokens)}`];
    if (p.topP !== undefined) parts.push(`top p ${p.topP}`);
    this.parameters.replaceChildren(h('span', { class: 'fact-label' }, 'Sampling'), h('span', {}, parts.join(' · ')));
    this.renderProgress(snapshot.progress);
    this.renderProvenance(undefined);
  }

  /** Says plainly when answers (and so their scores) came with the file rather than from a run on this machine. */
  renderProvenance(provenance: ProvenanceView | undefined): void {
    const fromFile = provenance?.fromFile ?? 0;
    this.provenance.hidden = !provenance || !(fromFile > 0);
    if (!provenance || !(fromFile > 0)) return;
    const all = fromFile === provenance.total;
    this.provenance.textContent = `${all ? `All ${formatCount(provenance.total)}` : `${formatCount(fromFile)} of ${formatCount(provenance.total)}`} answers came with the file; they were not produced on this machine, so neither were their scores. Using a checkpoint or deleting the others first offers to re-score.`;
  }

  /** The answers taken in so far while the rest come a page at a time; hidden once all are in. */
  renderLoading(loaded: number, total: number, problem?: string): void {
    this.loading.hidden = loaded >= total && problem === undefined;
    this.loading.textContent =
      problem !== undefined
        ? `Answers ${formatCount(loaded)} of ${formatCount(total)} are shown; the rest could not be loaded: ${problem}`
        : `Loading answers: ${formatCount(loaded)} of ${formatCount(total)}…`;
  }

  renderProgress(progress: RunProgress | undefined): void {
    this.progressRow.hidden = !progress;
    if (!progress) {
      this.cancelButton.disabled = false;
      this.setRateLimit(undefined);
      return;
    }
    this.bar.max = Math.max(1, progress.total);
    this.bar.value = Math.min(progress.done, progress.total);
    const failed = progress.failed > 0 ? ` · ${formatCount(progress.failed)} failed` : '';
    this.counts.textContent = `${formatCount(progress.done)} of ${formatCount(progress.total)} answers${failed}`;
    this.counts.classList.toggle('has-failed', progress.failed > 0);
    this.setRateLimit(progress.rateLimitedUntil);
  }

  private setRateLimit(until: number | undefined): void {
    this.rateUntil = until ?? 0;
    clearInterval(this.rateTimer);
    this.rateTimer = undefined;
    if (this.tickRateLimit()) this.rateTimer = setInterval(() => this.tickRateLimit() || clearInterval(this.rateTimer), 1000);
  }

  /** Shows the seconds left; false once there are none. */
  private tickRateLimit(): boolean {
    const seconds = Math.ceil((this.rateUntil - Date.now()) / 1000);
    this.rateLimit.hidden = !(seconds > 0);
    if (seconds > 0) this.rateLimit.textContent = `Rate limited by the platform: resuming in ${seconds} s`;
    return seconds > 0;
  }
}
