import type { TrainingJobEvent } from '../../../platform/client/types';
import { formatMetric } from '../../../platform/kit/format';
import { modelStepOf } from '../../model/jobSteps';
import { button, h } from '../../../platform/pages/page/dom';

const initialRows = 200;

/**
 * The event list, newest first. Long histories show their newest rows and a button for the rest.
 * A gradient step's row is named by its job step and shows the model step it reported, the same
 * numbers the header and the charts show. `jobSteps` always runs parallel to the events.
 */
export class Timeline {
  readonly element = h('div', { class: 'timeline' });
  private readonly list = h('ol', { class: 'events' });
  private readonly more = button('Show all events', () => this.showAll(), { title: 'List the older events too' });
  private shown = 0;
  private all: readonly TrainingJobEvent[] = [];
  private jobSteps: readonly (number | undefined)[] = [];

  constructor() {
    this.more.hidden = true;
    this.element.append(this.list, this.more);
  }

  reset(events: readonly TrainingJobEvent[], jobSteps: readonly (number | undefined)[]): void {
    this.all = events;
    this.jobSteps = jobSteps;
    this.list.replaceChildren();
    const start = Math.max(0, events.length - initialRows);
    const rows: HTMLElement[] = [];
    for (let index = events.length - 1; index >= start; index--) rows.push(row(events[index]!, jobSteps[index]));
    this.list.append(...rows);
    this.shown = rows.length;
    this.updateMore();
    if (events.length === 0) this.list.append(h('li', { class: 'muted' }, 'No events yet.'));
  }

  /** Adds the newest `freshCount` events of `all` (the kept history, oldest first) at the top. */
  prepend(freshCount: number, all: readonly TrainingJobEvent[], jobSteps: readonly (number | undefined)[]): void {
    if (freshCount <= 0) return;
    this.all = all;
    this.jobSteps = jobSteps;
    this.list.querySelector('.muted')?.remove();
    const rows: HTMLElement[] = [];
    for (let index = all.length - 1; index >= Math.max(0, all.length - freshCount); index--) rows.push(row(all[index]!, jobSteps[index]));
    this.list.prepend(...rows);
    this.shown += rows.length;
    // The page keeps a bounded history; rows of events it let go leave the list too.
    while (this.shown > all.length && this.list.lastElementChild) {
      this.list.lastElementChild.remove();
      this.shown--;
    }
    this.updateMore();
  }

  private showAll(): void {
    this.shown = 0;
    const rows: HTMLElement[] = [];
    for (let index = this.all.length - 1; index >= 0; index--) rows.push(row(this.all[index]!, this.jobSteps[index]));
    this.list.replaceChildren(...rows);
    this.shown = rows.length;
    this.updateMore();
  }

  private updateMore(): void {
    const hidden = this.all.length - this.shown;
    this.more.hidden = hidden <= 0;
    this.more.textContent = `Show ${hidden} older event${hidden === 1 ? '' : 's'}`;
  }
}

function row(event: TrainingJobEvent, jobStep: number | undefined): HTMLElement {
  const item = h('li', { class: `event type-${event.type.replace(/[^a-z_]/gi, '')}` });
  // A gradient step the job does not count (one after the job ended) is not given a number.
  const label = event.type === 'gradient_step' ? (jobStep === undefined ? 'gradient step' : `job step ${jobStep}`) : event.type.replace(/_/g, ' ');
  item.append(h('span', { class: 'event-type' }, label));
  item.append(h('span', { class: 'event-data' }, summarize(event)));
  item.title = JSON.stringify(event.data ?? {}, null, 2);
  return item;
}

function summarize(event: TrainingJobEvent): string {
  const data = event.data ?? {};
  if (event.type === 'training_failed' && typeof data.error_message === 'string') return data.error_message;
  if (event.type === 'training_started' && typeof data.num_sequences === 'number') return `${data.num_sequences} job steps announced`;
  const modelStep = event.type === 'gradient_step' ? modelStepOf(event) : undefined;
  const metrics = Object.entries(data)
    .filter(([key, value]) => key !== 'step' && typeof value === 'number')
    .slice(0, 6)
    .map(([key, value]) => `${key} ${formatMetric(value as number)}`);
  return (modelStep === undefined ? metrics : [`model step ${formatMetric(modelStep)}`, ...metrics]).join(' · ');
}
