/**
 * The job details page's methods and events, on the wire format every webview shares
 * (../common/wire.ts). The page asks for everything known when it (re)loads, for a refresh, and to
 * copy its JSON; the host then pushes each new batch of events as they arrive.
 */
import type { TrainingJob, TrainingJobEvent } from '../platform/client/types';
import type { JobStatus } from './model/jobStatus';
import type { NoMethods } from '../platform/pages/wire';
import type { ChartFile } from '../platform/pages/chartFile';

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

/** Everything known, the reply to `ready`. */
export interface JobSnapshot {
  job: JobSummary;
  status: JobStatus;
  events: readonly TrainingJobEvent[];
  record?: TrainingJob;
  connectionError?: string;
  /** Host clock, so elapsed times agree with the tree. */
  now: number;
}

/** What changed since the last message: only the new events travel. */
export interface JobAppend {
  type: 'append';
  status: JobStatus;
  events: readonly TrainingJobEvent[];
  record?: TrainingJob;
  connectionError?: string;
  now: number;
}

/**
 * Longest text the page may ask to copy: the raw JSON of a job and the events the page keeps
 * (at most 5,000) is a few megabytes; anything far larger did not come from the page's own data.
 */
export const maxCopyChars = 64 * 1024 * 1024;

/** Requests the page sends to the host. */
export type JobHostMethods = {
  /** The page (re)loaded: the reply is the snapshot, and appends follow from then on. */
  ready: { params: Record<string, never>; result: JobSnapshot };
  refresh: { params: Record<string, never>; result: null };
  copy: { params: { text: string }; result: null };
  /** Save a chart's data (CSV) or image (PNG) where the person chooses. */
  saveChart: { params: ChartFile; result: null };
};

/** The host asks the page nothing. */
export type JobPageMethods = NoMethods;

/** Events the host sends to the page. */
export type JobHostEvent = JobAppend;

/** The page sends no events. */
export type JobPageEvent = never;

/** What the page keeps across reloads, and what brings its panel back after a window reload. */
export interface JobDetailsViewState {
  jobId: string;
}

/**
 * The webview type of job details panels: activation registers their serializer with it,
 * without loading the panels (package.json's onWebviewPanel event names it too).
 */
export const jobDetailsViewType = 'rlStudio.jobDetails';

// ---------------------------------------------------------------- runs charted together

/** A job followed here, as the model steps it covered: a marker on a model's charts. */
export interface JobSpan {
  id: string;
  label: string;
  firstStep: number;
  lastStep: number;
  phase: 'queued' | 'running' | 'succeeded' | 'failed';
}

/** One metric of a run: its steps (ascending) and values. */
export interface RunMetric {
  xs: number[];
  ys: number[];
}

/**
 * A run on the charts: a model (its checkpoints' metrics by model step) or a job (its gradient
 * steps' metrics, by model step when every step reported one in order, else by job step).
 */
export interface RunSeries {
  id: string;
  kind: 'model' | 'job';
  label: string;
  axis: 'model step' | 'job step';
  metrics: Record<string, RunMetric>;
  /** More points exist than are charted (the oldest are left out). */
  truncated: boolean;
  /** Why the run could not be read (the words every view uses), while it cannot. */
  error?: string;
}

/** Everything a run charts page shows; sent whole on load and on every change (it is bounded). */
export interface RunChartsSnapshot {
  title: string;
  runs: RunSeries[];
  /** The followed jobs of a single model, marked where they started; empty when runs are compared. */
  jobs: JobSpan[];
}

/** The newest checkpoints a model's charts read at most: a hundred pages of a hundred. */
export const maxCheckpointsCharted = 10_000;
/** Runs compared on one page at most. */
export const maxRunsCompared = 12;

export type RunChartsHostMethods = {
  ready: { params: Record<string, never>; result: RunChartsSnapshot };
  saveChart: { params: ChartFile; result: null };
  openJob: { params: { jobId: string }; result: null };
};

export type RunChartsHostEvent = { type: 'update'; snapshot: RunChartsSnapshot };

/** What brings a charts panel back after a reload: the runs it showed. */
export interface RunChartsViewState {
  models: string[];
  jobs: string[];
}

export const runChartsViewType = 'rlStudio.runCharts';
