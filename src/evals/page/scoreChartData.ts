/**
 * What the score-against-step chart draws, from the leaderboard and the models: each checkpoint's
 * mean score with its 95 % interval by step, the training metric recorded with it, the base model
 * (at step 0) and the catalogue models to beat; and the same as CSV. Pure, so it is tested in Node.
 */
import type { EvalModelRef, LeaderboardRow } from '../model/evalModel';
import { csvField } from '../../platform/pages/page/chart/metricChart';

/** The metric keys the checkpoints record, and the one shown first: a key named like reward, else the first. */
export function metricChoices(models: readonly EvalModelRef[]): { keys: string[]; preferred: string | undefined } {
  const keys: string[] = [];
  for (const model of models) {
    if (model.kind !== 'checkpoint' || !model.metrics) continue;
    for (const [key, value] of Object.entries(model.metrics)) if (typeof value === 'number' && Number.isFinite(value) && !keys.includes(key)) keys.push(key);
  }
  const preferred = keys.find((key) => key.toLowerCase() === 'reward') ?? keys.find((key) => /reward/i.test(key)) ?? keys[0];
  return { keys, preferred };
}

export interface ScoredModel {
  model: EvalModelRef;
  row: LeaderboardRow;
}

/** A scored checkpoint at its step, with the training metric recorded with it (NaN when it has none). */
export interface CheckpointScore extends ScoredModel {
  step: number;
  metric: number;
}

export interface ScoreChartData {
  /** Ascending by step (checkpoints of two training models at one step both stay, in the order listed). */
  checkpoints: CheckpointScore[];
  base?: ScoredModel;
  catalogue: ScoredModel[];
  /** The training metric charted on the right axis, when any checkpoint records it. */
  metric?: string;
}

/** The checkpoints scored so far with a step, the base and catalogue models scored, and the metric of each checkpoint. */
export function scoreChartData(rows: readonly LeaderboardRow[], models: readonly EvalModelRef[], metric: string | undefined): ScoreChartData {
  const byModel = new Map(rows.map((row) => [row.model, row]));
  const scored = (model: EvalModelRef) => {
    const row = byModel.get(model.id);
    return row && row.scored > 0 ? row : undefined;
  };
  const checkpoints: CheckpointScore[] = [];
  let base: ScoredModel | undefined;
  const catalogue: ScoredModel[] = [];
  for (const model of models) {
    const row = scored(model);
    if (!row) continue;
    if (model.kind === 'checkpoint' && typeof model.step === 'number' && Number.isFinite(model.step)) {
      const value = metric === undefined ? undefined : model.metrics?.[metric];
      checkpoints.push({ model, row, step: model.step, metric: typeof value === 'number' && Number.isFinite(value) ? value : Number.NaN });
    } else if (model.kind === 'base') base ??= { model, row };
    else if (model.kind === 'catalogue') catalogue.push({ model, row });
  }
  checkpoints.sort((a, b) => a.step - b.step);
  const charted = metric !== undefined && checkpoints.some((point) => Number.isFinite(point.metric));
  return { checkpoints, ...(base ? { base } : {}), catalogue, ...(charted ? { metric } : {}) };
}

/**
 * Every point of the chart as CSV: a row per checkpoint by step (its mean, the bounds of its 95 %
 * interval and the training metric), then the base model at step 0 and the catalogue models (no
 * step). Numbers at full precision; names quoted and kept from reading as formulas.
 */
export function scoreChartCsv(data: ScoreChartData): string {
  const header = ['step', 'model', 'kind', 'mean', 'ci95_low', 'ci95_high', ...(data.metric !== undefined ? [csvField(data.metric)] : [])];
  const line = (step: number | undefined, { model, row }: ScoredModel, metric?: number) =>
    [step ?? '', csvField(model.id), model.kind, row.mean, row.low, row.high, ...(data.metric !== undefined ? [metric !== undefined && Number.isFinite(metric) ? metric : ''] : [])].join(',');
  const rows = [header.join(',')];
  for (const point of data.checkpoints) rows.push(line(point.step, point, point.metric));
  if (data.base) rows.push(line(0, data.base));
  for (const each of data.catalogue) rows.push(line(undefined, each));
  return `${rows.join('\n')}\n`;
}
