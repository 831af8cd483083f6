import type { TrainingJobEvent } from '../../platform/client/types';
import { isTerminal, isTerminalEvent, type JobStatus } from './jobStatus';

/**
 * The two step numberings of a training job, named wherever they are shown.
 *
 * - The job step counts this job's gradient steps: 1, 2, 3… up to what `training_started`
 *   announced. It is what the progress bar and "job step 34 of 1000" count.
 * - The model step is the `step` a `gradient_step` event reports: the step of the checkpoint it
 *   made. It goes on across every job that trains the same model (a second job starts where the
 *   first one stopped) and is the number in a checkpoint's name (`…:step58`).
 *
 * One page shows both, so neither is ever printed as a bare "step".
 */
export type StepAxis = 'model' | 'job';

export function stepAxisName(axis: StepAxis): string {
  return axis === 'model' ? 'model step' : 'job step';
}

/** The model step a gradient step reports, when it reports a usable one. */
export function modelStepOf(event: TrainingJobEvent): number | undefined {
  const data: unknown = event.data;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return undefined;
  const step = (data as Record<string, unknown>).step;
  return typeof step === 'number' && Number.isFinite(step) ? step : undefined;
}

/**
 * The job step of each event (undefined for events that are not counted gradient steps), numbered
 * as the job's status counts them. `countedSteps` is the status's `step`: the kept events may have
 * lost their oldest gradient steps, so the numbering ends at the count instead of starting at 1.
 * Gradient steps after a terminal event are not counted by the status, so they get no number.
 */
export function numberJobSteps(events: readonly TrainingJobEvent[], countedSteps: number): (number | undefined)[] {
  const counted: boolean[] = [];
  let kept = 0;
  let ended = false;
  for (const event of events) {
    const isStep = !ended && event.type === 'gradient_step';
    counted.push(isStep);
    if (isStep) kept++;
    if (isTerminalEvent(event)) ended = true;
  }
  let next = Math.max(0, (Number.isFinite(countedSteps) ? countedSteps : 0) - kept);
  return counted.map((isStep) => (isStep ? ++next : undefined));
}

/**
 * The header's line about progress, both numberings named:
 * "running · job step 34 of 1000 · model step 58", "succeeded · 1000 job steps · model step 1058".
 */
export function describeJobProgress(status: JobStatus): string {
  const parts: string[] = [status.phase];
  const step = Number.isFinite(status.step) ? Math.max(0, status.step) : 0;
  const total = status.totalSteps;
  if (isTerminal(status)) {
    if (step > 0) parts.push(`${step} job step${step === 1 ? '' : 's'}`);
  } else if (status.phase === 'running') {
    if (step === 0) parts.push('starting');
    else if (total === undefined) parts.push(`job step ${step}`);
    // More steps than announced: say both rather than "job step 1200 of 1000".
    else parts.push(step <= total ? `job step ${step} of ${total}` : `job step ${step} (${total} announced)`);
  }
  const modelStep = status.latestMetrics.step;
  if (step > 0 && modelStep !== undefined && Number.isFinite(modelStep)) parts.push(`model step ${modelStep}`);
  return parts.join(' · ');
}
