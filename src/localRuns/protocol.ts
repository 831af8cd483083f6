/**
 * The run view's methods and events, on the wire format every webview shares
 * (src/platform/pages/wire.ts). The page asks for the run when it (re)loads and when the person picks
 * another split; the host then pushes each batch of step figures as the step files are read, and the
 * steps that appear while the run goes on. Clicking a step asks the host to open its file in the
 * rollout inspector.
 */
import type { NoMethods } from '../platform/pages/wire';

/** The webview type of run view panels (their serializer is registered at activation). */
export const runViewType = 'rlStudio.localRun';

/** One of the rollout inspector's flags, as the page draws it: its badge, name and meaning. */
export interface FlagWords {
  flag: string;
  badge: string;
  label: string;
  meaning: string;
}

/** What one step's file says, once read. */
export interface StepFigures {
  groups: number;
  trajectories: number;
  /** The mean reward of its trajectories; absent when none has a reward. */
  meanReward?: number;
  /** Groups with each flag, in the order of the snapshot's `flags`. */
  flagCounts: number[];
  /** Groups whose rows could not be made into a group (see the inspector for what). */
  unreadableGroups: number;
}

export interface StepRow {
  step: number;
  /** The file's name, for the tooltip (`0012.parquet`). */
  fileName: string;
  bytes: number;
  state: 'pending' | 'read' | 'failed';
  figures?: StepFigures;
  /** Why the file could not be read (a failed step is a gap in the chart). */
  reason?: string;
}

export interface RunSnapshot {
  /** The model and the split, for the header: `project / model`. */
  title: string;
  /** The trajectories folder the run reads. */
  folder: string;
  splits: { name: string; stepCount: number }[];
  split: string;
  steps: StepRow[];
  /** More step files than the view lists (the latest ones are listed). */
  moreSteps: boolean;
  flags: FlagWords[];
}

/** Steps read or found since the last message, by step number. */
export interface StepsUpdate {
  type: 'steps';
  split: string;
  rows: StepRow[];
}

/** The split's listing changed (a step appeared or went): the whole list, figures kept. */
export interface StepsListed {
  type: 'listed';
  split: string;
  steps: StepRow[];
  moreSteps: boolean;
}

export type RunHostEvent = StepsUpdate | StepsListed;

export type RunHostMethods = {
  /** The page (re)loaded: the run as known now; updates follow. `split` is the one the page showed last. */
  ready: { params: { split?: string }; result: RunSnapshot };
  /** Another split: its snapshot; updates follow for it only. */
  chooseSplit: { params: { split: string }; result: RunSnapshot };
  /** Opens the step's file in the rollout inspector. */
  openStep: { params: { split: string; step: number }; result: null };
};

export type RunPageMethods = NoMethods;
export type RunPageEvent = never;

/** What the page keeps across reloads, and what brings its panel back after a window reload. */
export interface RunViewState {
  /** The trajectories folder (or a split folder) the panel shows. */
  folder: string;
  split?: string;
}

/** Longest split name the page may send: a folder name. */
export const maxSplitChars = 255;
