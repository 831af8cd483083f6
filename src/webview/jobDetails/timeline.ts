import type { TrainingJobEvent } from '../../api/types';
import { formatMetric } from '../../core/format';
import { el } from './dom';

const initialRows = 200;

/** The event list, newest first. Long histories show their newest rows and a button for the rest. */
export class Timeline {
  readonly element = el('div', 'timeline');
  private readonly list = el('ol', 'events');
  private readonly more = el('button', 'secondary', 'Show all events');
  private shown = 0;
  private all: readonly TrainingJobEvent[] = [];

  constructor() {
    this.more.hidden = true;
    this.more.addEventListener('click', () => this.showAll());
    this.element.append(this.list, this.more);
  }

  reset(events: readonly TrainingJobEvent[]): void {
    this.all = events;
    this.list.replaceChildren();
    const ordinals = gradientOrdinals(events);
    const start = Math.max(0, events.length - initialRows);
    const rows: HTMLElement[] = [];
    for (let index = events.length - 1; index >= start; index--) rows.push(row(events[index]!, ordinals.get(events[index]!.id)));
    this.list.append(...rows);
    this.shown = rows.length;
    this.updateMore();
    if (events.length === 0) this.list.append(el('li', 'muted', 'No events yet.'));
  }

  /** Adds new events at the top; `all` is the whole history, oldest first, including them. */
  prepend(fresh: readonly TrainingJobEvent[], all: readonly TrainingJobEvent[]): void {
    if (fresh.length === 0) return;
    this.all = all;
    this.list.querySelector('.muted')?.remove();
    let ordinal = 0;
    for (const event of all) if (event.type === 'gradient_step') ordinal++;
    const rows: HTMLElement[] = [];
    for (let index = fresh.length - 1; index >= 0; index--) {
      const event = fresh[index]!;
      rows.push(row(event, event.type === 'gradient_step' ? ordinal-- : undefined));
    }
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
    const ordinals = gradientOrdinals(this.all);
    const rows = [...this.all].reverse().map((event) => row(event, ordinals.get(event.id)));
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

function gradientOrdinals(events: readonly TrainingJobEvent[]): Map<string, number> {
  const ordinals = new Map<string, number>();
  let ordinal = 0;
  for (const event of events) if (event.type === 'gradient_step') ordinals.set(event.id, ++ordinal);
  return ordinals;
}

function row(event: TrainingJobEvent, ordinal: number | undefined): HTMLElement {
  const item = el('li', `event type-${event.type.replace(/[^a-z_]/gi, '')}`);
  const label = event.type === 'gradient_step' ? `step ${ordinal ?? '?'}` : event.type.replace(/_/g, ' ');
  item.append(el('span', 'event-type', label));
  item.append(el('span', 'event-data', summarize(event)));
  item.title = JSON.stringify(event.data ?? {}, null, 2);
  return item;
}

function summarize(event: TrainingJobEvent): string {
  const data = event.data ?? {};
  if (event.type === 'training_failed' && typeof data.error_message === 'string') return data.error_message;
  if (event.type === 'training_started' && typeof data.num_sequences === 'number') return `${data.num_sequences} gradient steps`;
  return Object.entries(data)
    .filter(([key, value]) => key !== 'step' && typeof value === 'number')
    .slice(0, 6)
    .map(([key, value]) => `${key} ${formatMetric(value as number)}`)
    .join(' · ');
}
