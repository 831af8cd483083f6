import type { TrainingJob, TrainingJobEvent } from '../api/types';
import type { JobStatus } from './jobStatus';

/** Typed messages between a job details panel (extension host) and its webview. */

export interface JobSummary {
  id: string;
  label: string;
  modelId?: string;
  kind?: 'rl' | 'sft';
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
