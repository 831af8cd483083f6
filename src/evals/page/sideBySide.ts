/**
 * One sample side by side: its prompt and reference, then each model's answers in columns (best
 * model first), each with its scores by scorer, finish reason and latency, and its words that
 * differ from the best model's answer to the same draw highlighted. Answers cut in the snapshot are
 * shown whole once the host sends them. Every text from the run goes in as text, never as markup.
 */
import { wordDiff, type DiffSpan } from '../../platform/kit/wordDiff';
import { button, h } from '../../platform/pages/page/dom';
import { diffText, foldedText } from '../../platform/pages/page/text';
import { failureReason, type ReportIndex, type ShownAnswer } from './reportIndex';
import { formatCount } from '../../platform/kit/format';
import { formatLatency, formatScore, modelLabel, scoreClass } from './labels';

/** Characters shown of a long text until "Show all" is pressed. */
const foldChars = 6_000;

export interface SideBySideEvents {
  retry(keys: string[]): void;
  /** The whole text of a cut answer is wanted; `answerArrived` is called when it is in the index. */
  wantWhole(key: string): void;
  /** The host could not send the whole answer (the file no longer has it). */
  wholeMissing(key: string): boolean;
  close(): void;
  diffChanged(on: boolean): void;
}

export class SideBySide {
  readonly element = h('section', { class: 'panel side-by-side', ariaLabel: 'The sample side by side', hidden: true });
  private sample: number | undefined;
  private focusModel: number | undefined;
  private diffOn = true;

  constructor(private readonly events: SideBySideEvents) {}

  get shownSample(): number | undefined {
    return this.sample;
  }

  setDiff(on: boolean): void {
    this.diffOn = on;
  }

  hide(): void {
    this.sample = undefined;
    this.element.hidden = true;
    this.element.replaceChildren();
  }

  show(index: ReportIndex, sample: number, focusModel: number | undefined, ranking: readonly string[]): void {
    this.sample = sample;
    this.focusModel = focusModel;
    this.render(index, ranking);
  }

  /** Draws the shown sample again (new answers, a whole answer arrived), keeping the scroll. */
  refresh(index: ReportIndex, ranking: readonly string[]): void {
    if (this.sample !== undefined) this.render(index, ranking);
  }

  private render(index: ReportIndex, ranking: readonly string[]): void {
    const sample = this.sample!;
    const view = index.samples[sample];
    if (!view) {
      this.hide();
      return;
    }
    this.element.hidden = false;
    const diffToggle = button(
      this.diffOn ? 'Differences shown' : 'Differences hidden',
      () => {
        this.diffOn = !this.diffOn;
        this.events.diffChanged(this.diffOn);
        this.render(index, ranking);
      },
      { title: "Highlight each answer's words that differ from the best model's answer", class: 'toggle' },
    );
    diffToggle.setAttribute('aria-pressed', String(this.diffOn));
    const close = button('Close', () => this.events.close(), { title: 'Close the side-by-side view (Escape)' });
    const head = h(
      'div',
      { class: 'panel-head' },
      h('h2', {}, `Sample #${formatCount(view.line + 1)}`),
      h('span', { class: 'muted small sample-id', title: 'The sample id' }, view.id),
      h('span', { class: 'spacer' }),
      diffToggle,
      close,
    );

    const prompt = h('div', { class: 'prompt' });
    if (view.messages.length === 0) prompt.append(h('p', { class: 'muted' }, 'The report has no prompt for this sample.'));
    for (const message of view.messages)
      prompt.append(
        h(
          'div',
          { class: `message role-${message.role === 'system' || message.role === 'user' || message.role === 'assistant' ? message.role : 'other'}` },
          h('div', { class: 'role' }, message.role || '(no role)'),
          folded(message.content),
        ),
      );
    if (view.reference !== undefined) prompt.append(h('div', { class: 'message reference' }, h('div', { class: 'role' }, 'reference'), folded(view.reference)));

    // Models best first (the leaderboard's order), the rest as the run lists them.
    const order = index.models.map((_, at) => at);
    const rank = (model: number) => {
      const at = ranking.indexOf(index.models[model]!.id);
      return at < 0 ? ranking.length + model : at;
    };
    order.sort((a, b) => rank(a) - rank(b));
    const bestModel = order.find((model) => (index.cell(sample, model)?.scored ?? 0) > 0);
    const columns = h('div', { class: 'answers' });
    columns.style.setProperty('--columns', String(order.length));
    for (const model of order) columns.append(this.column(index, sample, model, bestModel));
    this.element.replaceChildren(head, prompt, columns);
  }

  private column(index: ReportIndex, sample: number, model: number, bestModel: number | undefined): HTMLElement {
    const ref = index.models[model]!;
    const cell = index.cell(sample, model);
    const isBest = model === bestModel;
    const column = h('div', { class: `answer-column${isBest ? ' best' : ''}${model === this.focusModel ? ' focused' : ''}`, data: { model: ref.id } });
    const head = h('div', { class: 'answer-head' }, h('strong', { title: ref.id }, modelLabel(ref)));
    if (isBest) head.append(h('span', { class: 'badge best-badge', title: 'The differences of the other answers are against this one' }, 'best'));
    if (cell?.scored) head.append(h('span', { class: `score-chip ${scoreClass(cell.mean)}`, title: `Mean ${index.primary} over ${cell.scored} scored answers` }, formatScore(cell.mean)));
    column.append(head);
    const draws = cell?.draws ?? [];
    if (!draws.some(Boolean)) column.append(h('p', { class: 'muted' }, 'No answer yet.'));
    draws.forEach((answer, draw) => {
      if (!answer) return;
      const best = bestModel !== undefined && !isBest ? (index.cell(sample, bestModel)?.draws[draw] ?? index.cell(sample, bestModel)?.draws.find(Boolean)) : undefined;
      column.append(this.answer(index, answer, draws.length > 1 ? draw : undefined, best));
    });
    return column;
  }

  private answer(index: ReportIndex, answer: ShownAnswer, draw: number | undefined, best: ShownAnswer | undefined): HTMLElement {
    const box = h('div', { class: 'answer', data: { key: answer.key } });
    if (draw !== undefined) box.append(h('div', { class: 'muted small' }, `draw ${draw + 1}`));
    const reason = failureReason(answer, index.primary);
    if (answer.error !== undefined) {
      box.classList.add('failed');
      box.append(
        h('div', { class: 'failure' }, `No answer: ${reason}`),
        button('Retry', () => this.events.retry([answer.key]), { title: 'Ask this answer again' }),
      );
      return box;
    }
    const text = answer.text ?? '';
    if (answer.cut) this.events.wantWhole(answer.key);
    if (best?.cut) this.events.wantWhole(best.key);
    const spans = this.diffOn && best && best.text !== undefined && !best.cut && !answer.cut ? wordDiff(best.text, text) : undefined;
    if (spans) box.append(diff(spans));
    else box.append(folded(text || '(empty)'));
    if (answer.cut)
      box.append(h('div', { class: 'note' }, this.events.wholeMissing(answer.key) ? 'Only the start of this answer is shown: the results file no longer has it whole.' : 'Fetching the whole answer…'));
    else if (this.diffOn && best && !spans && !best.cut) box.append(h('div', { class: 'note' }, 'Too long to compare word by word: shown as it is.'));
    const scores = h('div', { class: 'scores' });
    for (const [name, score] of Object.entries(answer.scores ?? {})) {
      if (typeof score === 'number')
        scores.append(h('span', { class: `score-chip ${scoreClass(score)}${name === index.primary ? ' primary' : ''}`, title: `${name}: ${score}` }, `${name} ${formatScore(score)}`));
      else scores.append(h('span', { class: 'score-chip failed', title: `${name} could not score: ${String(score?.error)}` }, `${name} failed`));
    }
    const facts: string[] = [];
    if (answer.finishReason) facts.push(`finish: ${answer.finishReason}`);
    if (answer.latencyMs !== undefined) facts.push(formatLatency(answer.latencyMs));
    if (answer.usage) facts.push(`${formatCount(answer.usage.completionTokens)} tokens`);
    box.append(scores, h('div', { class: `answer-facts muted small${answer.finishReason === 'length' ? ' truncated' : ''}` }, facts.join(' · ')));
    if (reason)
      box.append(
        h('div', { class: 'failure' }, reason),
        button('Retry', () => this.events.retry([answer.key]), { title: 'Ask this answer again' }),
      );
    return box;
  }
}

/** A long text shows its start and a button for the rest. */
function folded(content: string): HTMLElement {
  return foldedText(content, { className: 'answer-text', foldChars, title: 'Show the whole text' });
}

function diff(spans: DiffSpan[]): HTMLElement {
  return diffText(spans, { className: 'answer-text', title: "Against the best model's answer: highlighted only here, struck through only in the best" });
}
