/**
 * A training job as text for a language model and the person who asked it: what the job is doing,
 * its latest metrics and how each metric went (`describeJobForAgent`), and the facts in numbers
 * behind a failure or a reward drop (`explainJobFacts`), which a model is then asked to explain.
 * Facts only: no guess at a cause is made here.
 */
import { redactSecrets } from '../../platform/client/redact';
import type { TrainingJob, TrainingJobEvent } from '../../platform/client/types';
import { quoted } from '../../platform/kit/confirmationText';
import { formatCount, formatDuration, formatTimestamp, plural } from '../../platform/kit/format';
import { foreignName, foreignToken } from '../../platform/agent/foreignText';
import { applyJobEvents, elapsedMs, initialJobStatus, progressOf, withJobRecord, type JobStatus } from './jobStatus';
import { describeJobProgress, stepAxisName } from './jobSteps';
import { summariseMetrics, type MetricsSummary, type MetricTrend, type WindowChange } from './jobTrend';
import { defaultReportChars, formatFigure, formatSignedFigure, joinCapped, stepRange, textTable } from '../../platform/agent/textTable';

export interface JobReportOptions {
  /** Epoch ms: how long a running job has been running. */
  now: number;
  modelName?: string;
  /**
   * The job's status as the extension tracks it, so steps are numbered as its views number them;
   * by default folded from `events` and `job`.
   */
  status?: JobStatus;
  /** Characters of the whole text at most (8,000 by default). */
  maxChars?: number;
  /** Masked wherever they appear in the text, after it is cut to length. */
  secrets?: readonly string[];
  /** The last events analysed for trends (see `summariseMetrics`). */
  maxEvents?: number;
}

/** A server's failure message is quoted whole up to this many characters. */
export const maxFailureChars = 2_000;
/** Latest metrics listed, and metric columns in the compact table. */
const maxLatestMetrics = 16;
const maxTableColumns = 6;

/** The job, its progress, its latest metrics, its failure and its metric trends, as plain lines. */
export function describeJobForAgent(job: TrainingJob | undefined, events: readonly TrainingJobEvent[], options: JobReportOptions): string {
  const status = statusOf(job, events, options);
  const summary = summariseMetrics(events, { countedSteps: status.step, ...(options.maxEvents !== undefined ? { maxEvents: options.maxEvents } : {}) });
  const lines: string[] = [];
  const id = job?.id ?? 'unknown';
  lines.push(`Training job ${foreignToken(String(id))}${options.modelName ? ` (model ${foreignName(options.modelName)})` : ''}`);
  const progress = progressOf(status);
  lines.push(`Status: ${describeJobProgress(status)}${progress !== undefined && status.phase === 'running' ? ` (${Math.floor(progress * 100)}% of the announced steps)` : ''}`);
  const elapsed = elapsedMs(status, options.now);
  if (status.startedAt !== undefined) {
    const ended = status.endedAt !== undefined && status.phase !== 'running' ? ` · ended ${formatTimestamp(status.endedAt)}` : '';
    lines.push(`Started: ${formatTimestamp(status.startedAt)}${ended} · ${status.phase === 'running' ? 'running for' : 'ran for'} ${formatDuration(elapsed ?? 0)}`);
  }
  if (status.phase === 'failed') lines.push(`Failure message (verbatim, quoted on one line): ${failureMessage(status)}`);
  const latest = latestMetricsLine(status);
  if (latest) lines.push(latest);
  lines.push(eventsLine(events.length, summary));
  lines.push(...trendSection(summary));
  return joinCapped(lines, options.maxChars ?? defaultReportChars, options.secrets);
}

/**
 * Findings in numbers for a failed job or a reward drop: the failure message and the last step
 * before it, where reward dropped most and by how much with the metrics that moved over the same
 * steps, values that were not numbers, whether the job still runs. One string per finding.
 */
export function explainJobFacts(job: TrainingJob | undefined, events: readonly TrainingJobEvent[], options: JobReportOptions): string[] {
  const status = statusOf(job, events, options);
  const summary = summariseMetrics(events, { countedSteps: status.step, ...(options.maxEvents !== undefined ? { maxEvents: options.maxEvents } : {}) });
  const axis = stepAxisName(summary.axis);
  const findings: string[] = [phaseFinding(status)];
  if (status.phase === 'failed') {
    findings.push(`Failure message (verbatim, quoted on one line): ${failureMessage(status)}`);
    findings.push(status.step > 0 ? `The last gradient step before the failure: ${stepsOf(status)}${metricsOf(status.latestMetrics, 6)}.` : 'The job failed before any gradient step.');
  }
  for (const trend of summary.metrics) {
    if (trend.notFinite === 0) continue;
    const first = trend.firstNotFiniteStep !== undefined ? `, the first at ${axis} ${trend.firstNotFiniteStep}` : '';
    findings.push(`${key(trend.key)} was not a finite number on ${plural(trend.notFinite, 'gradient step')}${first}.`);
  }
  const reward = summary.metrics.find((trend) => trend.key === 'reward');
  if (summary.metrics.length === 0)
    findings.push(summary.gradientSteps === 0 ? 'No gradient step was reported, so there are no metrics.' : `None of the ${plural(summary.gradientSteps, 'gradient step')} reported a numeric metric.`);
  else if (!reward) findings.push('No gradient step reported a reward.');
  if (reward) findings.push(...rewardFindings(reward, axis));
  if (summary.metrics.length > 0) findings.push(`Directions over the run: ${summary.metrics.map((trend) => `${key(trend.key)} ${trend.direction}`).join(', ')}.`);
  if (summary.eventsNotConsidered > 0) findings.push(`Only the last ${formatCount(summary.eventsConsidered)} of ${formatCount(events.length)} events were analysed.`);
  return capFindings(findings, options.maxChars ?? defaultReportChars, options.secrets ?? []);
}

/**
 * The metrics a job logged on its gradient steps, in numbers: a compact table by step and each
 * metric's trend, largest drop and rise. `metrics` keeps those names only (loss and reward first).
 */
export function describeMetricsForAgent(events: readonly TrainingJobEvent[], options: { metrics?: readonly string[]; maxChars?: number; secrets?: readonly string[] } = {}): string {
  const status = applyJobEvents(initialJobStatus, events);
  const summary = summariseMetrics(events, { countedSteps: status.step });
  const wanted = options.metrics ? new Set(options.metrics) : undefined;
  const shown = wanted ? { ...summary, metrics: summary.metrics.filter((trend) => wanted.has(trend.key)) } : summary;
  const lines = [eventsLine(events.length, summary)];
  if (wanted && shown.metrics.length === 0)
    lines.push(`None of ${[...wanted].map((name) => key(name)).join(', ')} was reported; the job reported: ${summary.metrics.map((trend) => key(trend.key)).join(', ') || 'no numeric metric'}.`);
  else lines.push(...trendSection(shown));
  return joinCapped(lines, options.maxChars ?? defaultReportChars, options.secrets);
}

function statusOf(job: TrainingJob | undefined, events: readonly TrainingJobEvent[], options: JobReportOptions): JobStatus {
  // The fold is linear and light (what the tracker does with every event it polls); only the trend analysis is bounded to the last events.
  return options.status ?? withJobRecord(applyJobEvents(initialJobStatus, events), job);
}

/** The server's failure message inside quotes on one line, its line breaks shown as `\n`: it cannot pass for a line or a finding of RL Studio's own. */
function failureMessage(status: JobStatus): string {
  const message = status.errorMessage;
  if (message === undefined) return 'none: the training job failed without a message.';
  return message.length > maxFailureChars ? `${quoted(message, maxFailureChars - 1)} (${formatCount(message.length)} characters in all)` : quoted(message, maxFailureChars);
}

/** A metric key or an event type as the server named it: one plain token, or quoted. */
function key(name: string): string {
  return foreignToken(name, 60);
}

function phaseFinding(status: JobStatus): string {
  switch (status.phase) {
    case 'queued':
      return 'The job has not started: no training event has arrived yet.';
    case 'running': {
      const total = status.totalSteps !== undefined ? ` of ${formatCount(status.totalSteps)} announced` : '';
      const model = status.latestMetrics.step;
      const at = `job step ${status.step}${total}${model !== undefined ? `, model step ${model}` : ''}`;
      return status.step === 0 ? 'The job is still running and has not reported a gradient step yet.' : `The job is still running (${at}): its numbers may still change.`;
    }
    case 'succeeded':
      return `The job succeeded after ${plural(status.step, 'job step')}${modelStepSuffix(status)}.`;
    case 'failed':
      return `The job failed after ${plural(status.step, 'job step')}${modelStepSuffix(status)}.`;
  }
}

function stepsOf(status: JobStatus): string {
  const model = status.latestMetrics.step;
  return `job step ${status.step}${model !== undefined ? ` (model step ${model})` : ''}`;
}

function modelStepSuffix(status: JobStatus): string {
  const model = status.latestMetrics.step;
  return status.step > 0 && model !== undefined ? ` (last model step ${model})` : '';
}

function rewardFindings(reward: MetricTrend, axis: string): string[] {
  const findings: string[] = [];
  findings.push(
    `Reward went from ${formatFigure(reward.first.value)} (${axis} ${reward.first.step}) to ${formatFigure(reward.last.value)} (${axis} ${reward.last.step}); ` +
      `it peaked at ${formatFigure(reward.max.value)} (${axis} ${reward.max.step}); standard deviation over the run ${formatFigure(reward.std)}.`,
  );
  const drop = reward.largestDrop;
  if (!drop) {
    findings.push('Reward never fell from one window of steps to the next.');
    return findings;
  }
  findings.push(`Largest reward drop: ${windowSentence('reward', drop, axis)}.`);
  findings.push(
    drop.alongside.length > 0
      ? `Over the same steps: ${drop.alongside.map((moved) => `${key(moved.key)} ${verb(moved.change)} from ${formatFigure(moved.before)} to ${formatFigure(moved.after)} (${formatSignedFigure(moved.relative)} × its std)`).join('; ')}.`
      : 'Over the same steps no other metric moved by a quarter of its standard deviation or more.',
  );
  return findings;
}

/** "reward fell from 0.62 (mean of model steps 30–39) to 0.31 (model steps 40–49): -0.31, -1.9 × its std". */
function windowSentence(name: string, change: WindowChange, axis: string): string {
  return (
    `${key(name)} ${verb(change.change)} from ${formatFigure(change.before.mean)} (mean of ${stepRange(axis, change.before.fromStep, change.before.toStep)}) ` +
    `to ${formatFigure(change.after.mean)} (${stepRange(axis, change.after.fromStep, change.after.toStep)}): ${formatSignedFigure(change.change)}, ${formatSignedFigure(change.relative)} × its std`
  );
}

function verb(change: number): string {
  return change < 0 ? 'fell' : change > 0 ? 'rose' : 'stayed';
}

function latestMetricsLine(status: JobStatus): string | undefined {
  if (status.step === 0) return undefined;
  const text = metricsOf(status.latestMetrics, maxLatestMetrics);
  return text ? `Latest metrics, ${stepsOf(status)}${text}` : undefined;
}

/** ": loss 0.412 · reward 0.31 · … 3 more", loss and reward first, `step` left out (it is the model step). */
function metricsOf(metrics: Readonly<Record<string, number>>, max: number): string {
  const keys = Object.keys(metrics)
    .filter((key) => key !== 'step')
    .sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  if (keys.length === 0) return '';
  const shown = keys.slice(0, max).map((name) => `${key(name)} ${formatFigure(metrics[name]!)}`);
  if (keys.length > max) shown.push(`… ${formatCount(keys.length - max)} more`);
  return `: ${shown.join(' · ')}`;
}

function rank(key: string): number {
  return key === 'loss' ? 0 : key === 'reward' ? 1 : 2;
}

function eventsLine(total: number, summary: MetricsSummary): string {
  const parts = [`Events: ${formatCount(total)}`];
  if (summary.eventsNotConsidered > 0) parts.push(`the last ${formatCount(summary.eventsConsidered)} analysed`);
  parts.push(plural(summary.gradientSteps, 'gradient step'));
  if (summary.unknownEvents > 0) parts.push(`${formatCount(summary.unknownEvents)} of unknown types (${summary.unknownTypes.map((type) => foreignToken(type, 40)).join(', ')})`);
  return parts.join(' · ');
}

function trendSection(summary: MetricsSummary): string[] {
  if (summary.metrics.length === 0) return [summary.gradientSteps === 0 ? 'Metrics: none yet (no gradient step).' : 'Metrics: the gradient steps reported no numeric metric.'];
  const axis = stepAxisName(summary.axis);
  const lines: string[] = [];
  const more = summary.metricsNotShown > 0 || summary.moreMetricNames ? ` (${summary.metricsNotShown > 0 ? formatCount(summary.metricsNotShown) : 'some'} more metrics not shown)` : '';
  lines.push(`Metrics by ${axis}, over ${stepRange(axis, summary.firstStep ?? 0, summary.lastStep ?? 0)}${more}:`);
  const columns = summary.metrics.slice(0, maxTableColumns);
  const rows = summary.sampleSteps.map((step, row) => [String(step), ...columns.map((trend) => (trend.samples[row] === undefined ? '–' : formatFigure(trend.samples[row])))]);
  lines.push(...textTable([axis, ...columns.map((trend) => key(trend.key))], rows));
  lines.push('Trends:');
  for (const trend of summary.metrics) lines.push(...trendLines(trend, axis));
  return lines;
}

function trendLines(trend: MetricTrend, axis: string): string[] {
  const at = (step: number) => `${axis} ${step}`;
  const parts = [
    `- ${key(trend.key)}: ${trend.direction}`,
    plural(trend.count, 'point'),
    `first ${formatFigure(trend.first.value)} (${at(trend.first.step)}), last ${formatFigure(trend.last.value)} (${at(trend.last.step)})`,
    `min ${formatFigure(trend.min.value)} (${at(trend.min.step)}), max ${formatFigure(trend.max.value)} (${at(trend.max.step)})`,
    `mean ${formatFigure(trend.start.mean)} over ${stepRange(axis, trend.start.fromStep, trend.start.toStep)}, ${formatFigure(trend.end.mean)} over ${stepRange(axis, trend.end.fromStep, trend.end.toStep)}`,
    `slope ${formatSignedFigure(trend.slopePer100)} per 100 ${axis}s`,
  ];
  if (trend.notFinite > 0) parts.push(`${formatCount(trend.notFinite)} not finite`);
  const lines = [parts.join(' · ')];
  if (trend.largestDrop) lines.push(`  largest drop: ${windowSentence(trend.key, trend.largestDrop, axis)}`);
  if (trend.largestRise) lines.push(`  largest rise: ${windowSentence(trend.key, trend.largestRise, axis)}`);
  return lines;
}

/** Findings while they fit in `maxChars` in all, then one saying how many were left out; each masked last. */
function capFindings(findings: readonly string[], maxChars: number, secrets: readonly string[]): string[] {
  const cap = Math.max(80, Math.floor(Number.isFinite(maxChars) ? maxChars : defaultReportChars));
  const kept: string[] = [];
  let used = 0;
  for (let index = 0; index < findings.length; index++) {
    const left = findings.length - index;
    const note = left > 1 ? `… ${plural(left - 1, 'more finding')}`.length : 0;
    let finding = findings[index]!;
    if (used + finding.length + note > cap) {
      if (kept.length > 0) {
        kept.push(`… ${plural(left, 'more finding')}`);
        break;
      }
      // The first finding alone is too long: it is cut rather than lost.
      finding = `${finding.slice(0, Math.max(0, cap - note - 1))}…`;
    }
    kept.push(finding);
    used += finding.length;
  }
  return kept.map((finding) => redactSecrets(finding, secrets));
}
