/**
 * The rollout inspector's methods and events, on the wire format every webview shares
 * (../common/wire.ts). The page asks for the file's state when it (re)loads, then for pages of rows
 * of its query and for the group it opens; the host pushes the file's state whenever it changes
 * (more read, groups appended, the file re-read), and the page asks its rows again, keeping its place.
 */
import type { GroupDetail, GroupQuery, RolloutFileState, RowsPage } from './model/inspectorModel';
import type { NoMethods } from '../platform/pages/wire';
import type { RescoringResult } from './model/rewardComparison';

/** The groups an action applies to: those picked in the list, or every group that matches the query. */
export type GroupScope = { kind: 'selected'; indices: number[] } | { kind: 'matching'; query: GroupQuery };

/** Indices a `selected` scope may name. */
export const maxSelectedGroups = 100_000;

/** Requests the page sends to the host. */
export type RolloutHostMethods = {
  /** The page (re)loaded: the reply is the file's state; `state` events follow from then on. */
  ready: { params: Record<string, never>; result: RolloutFileState };
  /** A page of the groups that match the query, in its order. A text search may take a while; `search` events tell how far it is. */
  rows: { params: { query: GroupQuery; start: number; count: number }; result: RowsPage };
  /** One group whole, for the group view; null when the file no longer has it. */
  group: { params: { index: number }; result: GroupDetail | null };
  /** Shows the group's line (or a problem's line) in the text editor beside. */
  revealLine: { params: { line: number }; result: null };
  /** Offers the other editors of the file (a Parquet file that is not a trajectory log). */
  reopenWith: { params: Record<string, never>; result: null };
  copyTrajectory: { params: { index: number; position: number }; result: null };
  createJob: { params: { scope: GroupScope }; result: null };
  logToModel: { params: { scope: GroupScope }; result: null };
  exportGroups: { params: { scope: GroupScope }; result: null };
};

/** The host asks the page nothing. */
export type RolloutPageMethods = NoMethods;

/** How far a text search has read the file. */
export interface SearchProgress {
  type: 'search';
  text: string;
  bytesRead: number;
  totalBytes: number;
}

/** Opens a group, as asked from outside the page (a reward trial's group). */
export interface RevealGroup {
  type: 'reveal';
  index: number;
}

/** Events the host sends to the page. */
export type RolloutHostEvent = { type: 'state'; state: RolloutFileState } | SearchProgress | RevealGroup;

/** The page sends no events. */
export type RolloutPageEvent = never;

/** What the page keeps across reloads (webview state): its place in the file. */
export interface RolloutsViewState {
  query: GroupQuery;
  scrollTop: number;
  /** The open group, if any. */
  openGroup?: number;
  selected: number[];
}

/**
 * The rollout inspector is one editor registered twice, because a custom editor's priority holds
 * for all of its file patterns: as the default editor of files named by the convention
 * (`*.trajectories.jsonl`, `*.trajectories.json`, and every `*.parquet`: VS Code has no text view of
 * one, and the official client logs its trajectories as Parquet), and as an "Open With…" choice for
 * any other `.jsonl` or `.json` file.
 */
export const rolloutsViewType = 'rlStudio.rollouts';
export const rolloutsOptionViewType = 'rlStudio.rollouts.openWith';
export const rolloutsViewTypes = [rolloutsViewType, rolloutsOptionViewType] as const;

/** What the reward trial's page shows: the file, the new reward, and the comparison. */
export interface RewardTrialView {
  fileName: string;
  /** The new reward, as the user chose it (e.g. "exact match against metadata.answer"). */
  reward: string;
  result: RescoringResult;
}

/** Requests the reward trial's page sends to the host. */
export type RewardTrialHostMethods = {
  /** The page (re)loaded: the reply is the comparison. */
  ready: { params: Record<string, never>; result: RewardTrialView };
  /** Opens the file in the rollout inspector at a group (by its index among the trial's groups). */
  openGroup: { params: { index: number }; result: null };
};
