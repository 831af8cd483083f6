/**
 * The failed answers, listed: which model, which sample, why; each retryable, all at once too. A
 * long list shows its first entries and says how many more the "Retry all" button asks again.
 */
import { button, h } from '../../platform/pages/page/dom';
import type { Failure, ReportIndex } from './reportIndex';
import { formatCount, plural } from '../../platform/kit/format';
import { modelLabel } from './labels';

/** Failures listed one by one; the rest are counted. */
export const maxListedFailures = 50;

export interface FailuresEvents {
  retry(keys: string[]): void;
  show(sample: number, model: number): void;
}

export class FailuresList {
  readonly element = h('section', { class: 'panel failures', ariaLabel: 'Failed answers', hidden: true });
  private shownVersion = -1;

  constructor(private readonly events: FailuresEvents) {}

  render(index: ReportIndex): void {
    if (index.version === this.shownVersion) return;
    this.shownVersion = index.version;
    const failures = index.failures();
    this.element.hidden = failures.length === 0;
    if (failures.length === 0) {
      this.element.replaceChildren();
      return;
    }
    const retryAll = button('Retry all', () => this.events.retry(failures.map((failure) => failure.answer.key)), {
      title: 'Ask every failed answer again',
      class: 'primary',
    });
    const head = h(
      'div',
      { class: 'panel-head' },
      h('h2', {}, `${plural(failures.length, 'answer')} failed`),
      h('span', { class: 'muted small' }, 'kept in the results file and asked again by the next run'),
      h('span', { class: 'spacer' }),
      retryAll,
    );
    const list = h('ul', { class: 'failure-list' });
    for (const failure of failures.slice(0, maxListedFailures)) list.append(this.item(index, failure));
    this.element.replaceChildren(head, list);
    if (failures.length > maxListedFailures) this.element.append(h('p', { class: 'muted small' }, `and ${formatCount(failures.length - maxListedFailures)} more: Retry all asks them too.`));
  }

  private item(index: ReportIndex, failure: Failure): HTMLElement {
    const model = index.models[failure.model]!;
    const sample = index.samples[failure.sample]!;
    const where = `${modelLabel(model)} · sample #${formatCount(sample.line + 1)}${failure.answer.draw > 0 ? ` · draw ${failure.answer.draw + 1}` : ''}`;
    return h(
      'li',
      { class: 'failure-item', data: { key: failure.answer.key } },
      h('span', { class: 'failure-where' }, where),
      h('span', { class: 'failure-reason', title: failure.reason }, failure.reason),
      button('Show', () => this.events.show(failure.sample, failure.model), { title: 'Show this sample side by side' }),
      button('Retry', () => this.events.retry([failure.answer.key]), { title: 'Ask this answer again' }),
    );
  }
}
