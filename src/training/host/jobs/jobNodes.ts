import * as vscode from 'vscode';
import { retryingIn, type Failure } from '../../../platform/client/describeFailure';
import type { TrainingJobEvent } from '../../../platform/client/types';
import { formatDuration, formatMetric } from '../../../platform/kit/format';
import { jobDetailsTitle } from '../../protocol';
import type { JobRecord } from '../../model/jobTracker';
import { describePhase, elapsedMs, isTerminal, latestLoss, type JobPhase } from '../../model/jobStatus';
import type { RememberedJob } from '../../../platform/host/rememberedItems';
import { codeText, escapeMarkdown } from '../../../platform/kit/markdownText';
import { tooltipCodeBlock, tooltipMarkdown } from '../../../platform/host/tooltips';

export type JobNode = { kind: 'job'; job: RememberedJob };
/** An event of a job; `jobStep` numbers its gradient steps as the job's status counts them. */
export type EventNode = { kind: 'event'; jobId: string; event: TrainingJobEvent; jobStep?: number; hideMessage?: boolean };
export type JobMessageNode = { kind: 'jobMessage'; jobId: string; text: string; icon: vscode.ThemeIcon; tooltip?: string };
export type MoreEventsNode = { kind: 'moreEvents'; jobId: string; shown: number; total: number };

export type JobsNode = JobNode | EventNode | JobMessageNode | MoreEventsNode;

/** Status colours from the theme, so every theme (and high contrast) gets readable icons. */
const phaseIcons: Record<JobPhase, vscode.ThemeIcon> = {
  queued: new vscode.ThemeIcon('watch', new vscode.ThemeColor('charts.yellow')),
  running: new vscode.ThemeIcon('sync~spin', new vscode.ThemeColor('charts.blue')),
  succeeded: new vscode.ThemeIcon('pass-filled', new vscode.ThemeColor('testing.iconPassed')),
  failed: new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed')),
};

/** A job's name, the same on its row, in pickers and on its details panel: its label, else "Job 8de92f73". */
export function jobLabel(job: RememberedJob): string {
  return jobDetailsTitle({ id: String(job.id), label: typeof job.label === 'string' ? job.label : undefined });
}

/** Drawn instead of the phase's icon while polls fail: the last known phase may no longer be true. */
export const failingIcon = new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground'));

/** What a failing job's row says: what happened, then when it is tried again. */
export function failureLine(record: JobRecord, failure: Failure | undefined, now: number): string {
  const message = failure?.message ?? record.connectionError ?? 'Polling failed.';
  if (record.stopped) return message;
  if (failure && !failure.retryable) return message;
  return `${message} ${record.retryAt === undefined ? 'Retrying.' : retryingIn(record.retryAt - now)}`;
}

/** A tooltip lists at most this many metrics of a job. */
const maxTooltipMetrics = 40;

export function jobItem(node: JobNode, record: JobRecord | undefined, now: number, failure?: Failure): vscode.TreeItem {
  const { job } = node;
  const item = new vscode.TreeItem(jobLabel(job), vscode.TreeItemCollapsibleState.Collapsed);
  item.id = `job:${job.id}`;
  if (!record || (!record.loaded && !record.connectionError)) {
    item.description = 'loading…';
    item.iconPath = new vscode.ThemeIcon('loading~spin');
    item.contextValue = 'job removable';
    return item;
  }
  const { status } = record;
  const failing = record.connectionError !== undefined;
  const parts: string[] = [];
  // What went wrong leads: a failed poll, or a failed job's error.
  if (failing) parts.push(failureLine(record, failure, now));
  // Before any poll succeeded nothing is known of the job; after, its last known phase may be stale.
  if (!failing || record.loaded) parts.push(failing && !isTerminal(status) ? `last seen ${describePhase(status)}` : describePhase(status));
  if (status.phase === 'failed' && status.errorMessage) parts.splice(failing ? 2 : 1, 0, status.errorMessage);
  const elapsed = elapsedMs(status, now);
  if (elapsed !== undefined && !failing) parts.push(formatDuration(elapsed));
  const loss = latestLoss(status);
  if (loss !== undefined) parts.push(`loss ${formatMetric(loss)}`);
  item.description = parts.join(' · ');
  item.iconPath = failing ? failingIcon : phaseIcons[status.phase];
  item.contextValue = ['job', status.phase, isTerminal(status) ? 'terminal' : 'live', failing ? 'failing' : '', 'removable'].filter(Boolean).join(' ');
  item.tooltip = jobTooltip(job, record, now, failure);
  item.accessibilityInformation = { label: `${jobLabel(job)}, ${item.description}` };
  return item;
}

function jobTooltip(job: RememberedJob, record: JobRecord, now: number, failure: Failure | undefined): vscode.MarkdownString {
  const { status } = record;
  const md = tooltipMarkdown({ themeIcons: true });
  md.appendMarkdown(`**${escapeMarkdown(jobLabel(job))}** — ${escapeMarkdown(describePhase(status))}\n\n`);
  md.appendMarkdown(`- Job: ${codeText(String(job.id))}\n`);
  if (job.modelId) md.appendMarkdown(`- Model: ${codeText(String(job.modelId))}\n`);
  if (job.kind) md.appendMarkdown(`- Kind: ${job.kind === 'sft' ? 'supervised fine-tuning' : 'reinforcement learning'}\n`);
  const elapsed = elapsedMs(status, now);
  if (elapsed !== undefined) md.appendMarkdown(`- ${isTerminal(status) ? 'Took' : 'Running for'}: ${formatDuration(elapsed)}\n`);
  if (status.startedAt !== undefined) md.appendMarkdown(`- Started: ${escapeMarkdown(new Date(status.startedAt).toLocaleString())}\n`);
  md.appendMarkdown(`- Events: ${escapeMarkdown(String(status.eventCount))}\n`);
  if (status.phase === 'failed') md.appendMarkdown(`\n$(error) **Error:** ${escapeMarkdown(String(status.errorMessage ?? 'unknown'))}\n`);
  if (record.connectionError !== undefined) {
    md.appendMarkdown(`\n$(warning) ${escapeMarkdown(failureLine(record, failure, now))}\n`);
    if (failure?.detail) md.appendMarkdown(`\nRequest: ${tooltipCodeBlock(failure.detail)}\n`);
    if (!isTerminal(status)) md.appendMarkdown(`\n${escapeMarkdown(`The phase above is the last one seen before the polls failed.`)}\n`);
  }
  const metrics = Object.entries(status.latestMetrics).slice(0, maxTooltipMetrics);
  if (metrics.length) {
    md.appendMarkdown('\n| Latest metric | Value |\n|---|---:|\n');
    for (const [name, value] of metrics) md.appendMarkdown(`| ${escapeMarkdown(name)} | ${escapeMarkdown(typeof value === 'number' ? formatMetric(value) : String(value))} |\n`);
  }
  return md;
}

export function eventItem(node: EventNode): vscode.TreeItem {
  const { event } = node;
  const item = new vscode.TreeItem(eventLabel(node), vscode.TreeItemCollapsibleState.None);
  item.id = `event:${node.jobId}:${event.id}`;
  item.description = node.hideMessage ? undefined : eventDescription(event);
  item.iconPath = eventIcon(event);
  item.contextValue = `event ${event.type}`;
  const md = tooltipMarkdown();
  md.appendMarkdown(`**${escapeMarkdown(String(event.type))}** ${codeText(String(event.id))}\n\n`);
  md.appendMarkdown(tooltipCodeBlock(JSON.stringify(event.data ?? {}, null, 2), 'json'));
  item.tooltip = md;
  return item;
}

function eventLabel(node: EventNode): string {
  const { event } = node;
  switch (event.type) {
    case 'training_started': {
      const total = event.data?.num_sequences;
      return typeof total === 'number' ? `started · ${total} job steps` : 'started';
    }
    case 'gradient_step':
      return node.jobStep === undefined ? 'gradient step' : `job step ${node.jobStep}`;
    case 'training_ended':
      return 'ended';
    case 'training_failed':
      return 'failed';
    default:
      return event.type;
  }
}

function eventDescription(event: TrainingJobEvent): string | undefined {
  if (event.type === 'training_failed') {
    const message = event.data?.error_message;
    return typeof message === 'string' ? message : undefined;
  }
  if (event.type !== 'gradient_step') return undefined;
  const parts: string[] = [];
  for (const key of ['loss', 'reward', 'learning_rate']) {
    const value = event.data?.[key];
    if (typeof value === 'number') parts.push(`${key} ${formatMetric(value)}`);
  }
  return parts.join(' · ') || undefined;
}

function eventIcon(event: TrainingJobEvent): vscode.ThemeIcon {
  switch (event.type) {
    case 'training_started':
      return new vscode.ThemeIcon('play', new vscode.ThemeColor('charts.blue'));
    case 'gradient_step':
      return new vscode.ThemeIcon('debug-step-over');
    case 'training_ended':
      return new vscode.ThemeIcon('pass-filled', new vscode.ThemeColor('testing.iconPassed'));
    case 'training_failed':
      return new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed'));
    default:
      return new vscode.ThemeIcon('circle-small');
  }
}

export function messageItem(node: JobMessageNode): vscode.TreeItem {
  const item = new vscode.TreeItem(node.text, vscode.TreeItemCollapsibleState.None);
  item.id = `message:${node.jobId}`;
  item.iconPath = node.icon;
  item.tooltip = node.tooltip ?? node.text;
  item.contextValue = 'jobMessage';
  return item;
}

export function moreEventsItem(node: MoreEventsNode): vscode.TreeItem {
  const item = new vscode.TreeItem('Show older events…', vscode.TreeItemCollapsibleState.None);
  item.id = `moreEvents:${node.jobId}`;
  item.description = `${node.shown} of ${node.total}`;
  item.iconPath = new vscode.ThemeIcon('ellipsis');
  item.contextValue = 'loadMore';
  item.command = { command: 'rlStudio.showOlderEvents', title: 'Show Older Events', arguments: [node] };
  return item;
}
