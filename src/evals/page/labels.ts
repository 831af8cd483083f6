/** How the report prints scores, counts and models, and which colour class a score takes. */
import type { EvalModelRef } from '../model/evalModel';

/** A score in [0, 1] with `digits` decimals; a dash when there is none. */
export function formatScore(value: number | undefined, digits = 2): string {
  return value === undefined || !Number.isFinite(value) ? '–' : value.toFixed(digits);
}

export function formatLatency(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

/** Five bands from worst to best: each a theme colour in evalReport.css. */
export function scoreClass(value: number): string {
  if (!Number.isFinite(value)) return 'score-none';
  return `score-${Math.max(0, Math.min(4, Math.floor(value * 5)))}`;
}

/** "step 120", "base", a catalogue id: the model's own label, else what it is. */
export function modelLabel(model: EvalModelRef): string {
  if (model.label) return model.label;
  if (model.kind === 'checkpoint' && model.step !== undefined) return `step ${model.step}`;
  return model.kind === 'base' ? 'base' : model.id;
}

/** A label short enough for a column head or a chart: a catalogue id without its organisation. */
export function shortLabel(model: EvalModelRef): string {
  const label = modelLabel(model);
  return model.kind === 'catalogue' ? (label.split('/').pop() ?? label) : label;
}
