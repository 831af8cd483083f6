import type { TrainingJob, TrainingJobEvent } from '../../api/types';
import type { JobStatus } from '../../core/jobStatus';

/** Typed messages between a job details panel (extension host) and its webview. */

export interface JobSummary {
  id: string;
  /** The page's title: `jobDetailsTitle` of the job. */
  label: string;
  modelId?: string;
  kind?: 'rl' | 'sft';
}

/**
 * A job's name on its panel's tab and page: the label it was given (the file it was created from
 * and the model it trains), else "Job" and the id's first eight characters.
 */
export function jobDetailsTitle(job: { id: string; label?: string }): string {
  const label = job.label?.trim();
  return label ? label : `Job ${job.id.slice(0, 8)}`;
}

/** Everything known, sent when the webview (re)loads. */
export interface SnapshotMessage {
  type: 'snapshot';
  job: JobSummary;
  status: JobStatus;
  events: readonly TrainingJobEvent[];
  record?: TrainingJob;
  connectionError?: string;
  /** Host clock, so elapsed times agree with the tree. */
  now: number;
}

/** What changed since the last message: only the new events travel. */
export interface AppendMessage {
  type: 'append';
  status: JobStatus;
  events: readonly TrainingJobEvent[];
  record?: TrainingJob;
  connectionError?: string;
  now: number;
}

export type HostMessage = SnapshotMessage | AppendMessage;

export type WebviewMessage =
  | { type: 'ready' }
  | { type: 'refresh' }
  | { type: 'copy'; text: string };

export function isWebviewMessage(value: unknown): value is WebviewMessage {
  if (typeof value !== 'object' || value === null) return false;
  const message = value as { type?: unknown; text?: unknown };
  if (message.type === 'ready' || message.type === 'refresh') return true;
  return message.type === 'copy' && typeof message.text === 'string';
}
