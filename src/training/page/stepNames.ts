import { formatMetric } from '../../platform/kit/format';
import type { StepAxis } from '../model/jobSteps';

/** "model step 58 · job step 34": the axis's numbering first, then the other one when known. */
export function describePoint(point: { jobStep: number; modelStep: number }, axis: StepAxis): string {
  const model = Number.isFinite(point.modelStep) ? `model step ${formatMetric(point.modelStep)}` : undefined;
  const job = `job step ${formatMetric(point.jobStep)}`;
  if (axis === 'model' && model) return `${model} · ${job}`;
  return model ? `${job} · ${model}` : job;
}
