/**
 * The run as the page reads it: every answer by sample and model (a cell of the matrix), each
 * cell's mean primary score over its draws, each sample's spread across models, the failures, and
 * the rows a filter and a sort leave. Answers arriving while the run goes are merged by key (a
 * retried answer replaces its failure). No DOM here.
 */
import type { AnswerRecord, EvalModelRef, EvalRunFile } from '../model/evalModel';
import { evalLimits } from '../model/evalModel';
import type { PreviewAnswer, SampleView } from '../protocol';
import { promptOf } from './samples';

/** A sample whose models' means lie this far apart or more is one they disagree on. */
export const disagreeSpread = 0.5;

export type SortOrder = 'sample' | 'spread';

export interface MatrixFilter {
  disagree: boolean;
  failures: boolean;
  text: string;
}

export const noFilter: MatrixFilter = { disagree: false, failures: false, text: '' };

/** An answer as the snapshot sends it: cut at the preview's length when `cut`. */
export type ShownAnswer = PreviewAnswer;

export interface Cell {
  /** Indexed by draw. */
  draws: (ShownAnswer | undefined)[];
  /** Mean of the primary scorer over the scored draws; NaN when none is. */
  mean: number;
  scored: number;
  failed: number;
}

export interface Failure {
  answer: ShownAnswer;
  sample: number;
  model: number;
  reason: string;
}

/** Why an answer counts as failed for the report: no answer came, or the primary scorer could not score it. */
export function failureReason(answer: AnswerRecord, primary: string): string | undefined {
  if (answer.error !== undefined) return answer.error || 'no answer came';
  const score = answer.scores?.[primary];
  if (typeof score === 'object' && score !== null) return `the ${primary} scorer failed: ${score.error}`;
  return undefined;
}

export function primaryScore(answer: AnswerRecord, primary: string): number | undefined {
  const score = answer.scores?.[primary];
  return typeof score === 'number' && Number.isFinite(score) ? score : undefined;
}

export class ReportIndex {
  readonly models: EvalModelRef[];
  readonly samples: SampleView[] = [];
  private readonly sampleAt = new Map<string, number>();
  private readonly modelAt = new Map<string, number>();
  /** By sample × models.length + model. */
  private readonly cells: (Cell | undefined)[] = [];
  private readonly byKey = new Map<string, ShownAnswer>();
  private lowered: string[] = [];
  /** Counts the changes, so views redraw what they show only when it moved. */
  version = 0;

  constructor(
    run: EvalRunFile,
    samples: SampleView[],
    readonly primary: string,
  ) {
    this.models = run.models.slice(0, evalLimits.models);
    this.models.forEach((model, at) => this.modelAt.set(model.id, at));
    for (const sample of samples) this.addSample(sample);
    this.merge(run.answers);
  }

  get sampleCount(): number {
    return this.samples.length;
  }

  merge(answers: readonly ShownAnswer[]): void {
    for (const answer of answers) {
      if (!answer || typeof answer.key !== 'string' || typeof answer.sample !== 'string') continue;
      const model = this.modelAt.get(answer.model);
      if (model === undefined) continue;
      const draw = Number.isSafeInteger(answer.draw) && answer.draw >= 0 && answer.draw < evalLimits.draws ? answer.draw : undefined;
      if (draw === undefined) continue;
      let sample = this.sampleAt.get(answer.sample);
      if (sample === undefined) {
        if (this.samples.length >= evalLimits.samples) continue;
        sample = this.addSample({ id: answer.sample, line: this.samples.length, messages: [] });
      }
      const at = sample * this.models.length + model;
      const cell = (this.cells[at] ??= { draws: [], mean: NaN, scored: 0, failed: 0 });
      const previous = cell.draws[draw];
      if (previous && previous.key !== answer.key) this.byKey.delete(previous.key);
      cell.draws[draw] = answer;
      this.byKey.set(answer.key, answer);
      this.score(cell);
    }
    this.version++;
  }

  cell(sample: number, model: number): Cell | undefined {
    return this.cells[sample * this.models.length + model];
  }

  answer(key: string): ShownAnswer | undefined {
    return this.byKey.get(key);
  }

  /** Replaces an answer's preview by the whole answer, in place. */
  replaceWhole(answer: AnswerRecord): void {
    if (this.byKey.has(answer.key)) this.merge([answer]);
  }

  /** Highest minus lowest mean across the models that have one; NaN below two. */
  spread(sample: number): number {
    let low = Infinity;
    let high = -Infinity;
    let counted = 0;
    for (let model = 0; model < this.models.length; model++) {
      const mean = this.cells[sample * this.models.length + model]?.mean;
      if (mean === undefined || Number.isNaN(mean)) continue;
      counted++;
      if (mean < low) low = mean;
      if (mean > high) high = mean;
    }
    return counted >= 2 ? high - low : NaN;
  }

  hasFailure(sample: number): boolean {
    for (let model = 0; model < this.models.length; model++) if ((this.cells[sample * this.models.length + model]?.failed ?? 0) > 0) return true;
    return false;
  }

  /** The samples a filter leaves, in the order asked, as sample positions. */
  rows(filter: MatrixFilter, sort: SortOrder): Int32Array {
    const text = filter.text.trim().toLowerCase();
    const out: number[] = [];
    for (let sample = 0; sample < this.samples.length; sample++) {
      if (filter.disagree && !(this.spread(sample) >= disagreeSpread)) continue;
      if (filter.failures && !this.hasFailure(sample)) continue;
      if (text && !this.lowered[sample]!.includes(text)) continue;
      out.push(sample);
    }
    if (sort === 'spread') {
      const spreads = new Float64Array(this.samples.length);
      for (const sample of out) spreads[sample] = this.spread(sample);
      // Largest spread first; samples with none last, each in set order.
      out.sort((a, b) => {
        const x = Number.isNaN(spreads[a]!) ? -1 : spreads[a]!;
        const y = Number.isNaN(spreads[b]!) ? -1 : spreads[b]!;
        return y - x || a - b;
      });
    }
    return Int32Array.from(out);
  }

  /** Every failed answer, in model then sample order. */
  failures(): Failure[] {
    const out: Failure[] = [];
    for (let model = 0; model < this.models.length; model++) {
      for (let sample = 0; sample < this.samples.length; sample++) {
        const cell = this.cells[sample * this.models.length + model];
        if (!cell?.failed) continue;
        for (const answer of cell.draws) {
          const reason = answer && failureReason(answer, this.primary);
          if (answer && reason) out.push({ answer, sample, model, reason });
        }
      }
    }
    return out;
  }

  sampleIndex(id: string): number | undefined {
    return this.sampleAt.get(id);
  }

  private addSample(sample: SampleView): number {
    const existing = this.sampleAt.get(sample.id);
    if (existing !== undefined) return existing;
    const at = this.samples.length;
    this.samples.push(sample);
    this.sampleAt.set(sample.id, at);
    this.lowered[at] = `${sample.id}\n${promptOf(sample)}`.toLowerCase();
    return at;
  }

  private score(cell: Cell): void {
    let sum = 0;
    let scored = 0;
    let failed = 0;
    for (const answer of cell.draws) {
      if (!answer) continue;
      if (failureReason(answer, this.primary) !== undefined) failed++;
      const score = primaryScore(answer, this.primary);
      if (score !== undefined) {
        sum += score;
        scored++;
      }
    }
    cell.mean = scored ? sum / scored : NaN;
    cell.scored = scored;
    cell.failed = failed;
  }
}
