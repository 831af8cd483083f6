/**
 * Where the official Python client keeps what `model.log()` writes, and how far RL Studio looks:
 * `<art path>/<project>/models/<model>/trajectories/<split>/<step:04d>.parquet`, the art path being
 * `.art` at the repository's root unless the script says otherwise. The layout has a fixed depth, so
 * discovery never walks deeper than it; every list it reads has a bound of its own.
 */

/** The art path the client uses when a script names none: `.art` beside the script's repository. */
export const defaultArtFolder = '.art';
export const modelsFolder = 'models';
export const trajectoriesFolder = 'trajectories';
export const modelFileName = 'model.json';

export const discoveryBounds = {
  /** Roots looked in: the workspace folders' `.art`, and the folders of `rlStudio.localRuns.folders`. */
  roots: 32,
  /** Projects listed per root. */
  projects: 64,
  /** Models listed per project. */
  models: 256,
  /** Splits listed per model (`train`, `val`, …). */
  splits: 16,
  /**
   * Step files counted per split. A folder with more is listed up to here and says so; the run view
   * and the tree read step files only when asked (a split's steps when it is expanded, a step's
   * groups when it is drawn), so counting them costs a directory read, nothing more.
   */
  steps: 20_000,
  /** Steps a run view lists, and reads, at most; the tree lists a split's first ones up to `treeSteps`. */
  runSteps: 5_000,
  treeSteps: 500,
  /** A listing this long or shorter comes with file sizes (a stat per file). */
  stepsWithSizes: 5_000,
  /** Entries of one folder read at most, whatever they are: a folder of a million files is not read whole. */
  entries: 50_000,
  /** model.json is read only this far: it holds a dozen short fields. */
  modelFileBytes: 64 * 1024,
} as const;

/** A step file's number: `0012.parquet` is step 12. Anything else in a split folder is not a step. */
export function stepOfFileName(name: string): number | undefined {
  const match = /^(\d{1,12})\.parquet$/i.exec(name);
  if (!match) return undefined;
  const step = Number(match[1]);
  return Number.isSafeInteger(step) ? step : undefined;
}

/** A folder name the client could have written, shown in the tree: not hidden, not a path of its own. */
export function isListedFolderName(name: string): boolean {
  return name !== '' && !name.startsWith('.') && !/[\\/]/.test(name);
}
