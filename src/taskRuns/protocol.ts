/**
 * The run dashboard's contract between the extension host and its page: the run as its file says
 * (or why the file cannot be read), and what the page may ask (each request checked by the host).
 */
import type { ChartFile } from '../platform/pages/chartFile';
import type { RunState } from './model/runState';

export interface TaskRunSnapshot {
  /** The run folder, relative to the workspace. */
  folder: string;
  /** The run folder's URI, which the page keeps to be revived after a reload. */
  folderUri: string;
  state?: RunState;
  /** Why run.json cannot be read (foreign text: shown as text). */
  problem?: string;
  /** A run of this folder is going in this window (Stop is offered). */
  running: boolean;
}

export type TaskRunHostMethods = {
  ready: { params: Record<string, never>; result: TaskRunSnapshot };
  saveChart: { params: ChartFile; result: null };
  openStep: { params: { index: number }; result: null };
  openJob: { params: { jobId: string }; result: null };
  openHeldOut: { params: Record<string, never>; result: null };
  copyCheckpoint: { params: { step: number }; result: null };
  stop: { params: Record<string, never>; result: null };
};

export type TaskRunHostEvent = { type: 'update'; snapshot: TaskRunSnapshot };

/** What brings a dashboard back after a reload: its run folder (a URI string). */
export interface TaskRunViewState {
  folder: string;
}

export const taskRunViewType = 'rlStudio.taskRun';
