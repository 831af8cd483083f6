/**
 * What a folder given to the run view is: a model's `trajectories/` folder, one of its split folders
 * (`trajectories/train`), or the model folder itself. The run view always reads the trajectories
 * folder and starts on the split it was given, else `train` when there is one, else the first.
 */
import { basename, dirname } from 'node:path';
import { discoveryBounds, isListedFolderName, trajectoriesFolder } from './artLayout';
import type { LocalFiles } from './localFiles';

export interface RunFolder {
  /** The `trajectories/` folder. */
  trajectories: string;
  /** The model folder's name and its project's (the folder above `models/`), for titles. */
  model: string;
  project: string;
  splits: string[];
  /** The split to show first. */
  split: string | undefined;
}

export async function readRunFolder(path: string, files: LocalFiles): Promise<RunFolder | undefined> {
  const candidates: { trajectories: string; split?: string }[] = [];
  if (basename(path) === trajectoriesFolder) candidates.push({ trajectories: path });
  if (basename(dirname(path)) === trajectoriesFolder) candidates.push({ trajectories: dirname(path), split: basename(path) });
  candidates.push({ trajectories: files.join(path, trajectoriesFolder) });
  for (const candidate of candidates) {
    const listing = await files.list(candidate.trajectories, discoveryBounds.entries);
    if (!listing) continue;
    const splits = listing.entries
      .filter((entry) => entry.kind === 'folder' && isListedFolderName(entry.name))
      .map((entry) => entry.name)
      .sort(splitOrder)
      .slice(0, discoveryBounds.splits);
    if (candidate.split === undefined && splits.length === 0 && basename(path) !== trajectoriesFolder) continue;
    const modelFolder = dirname(candidate.trajectories);
    const split = candidate.split !== undefined && splits.includes(candidate.split) ? candidate.split : (splits.find((name) => name === 'train') ?? splits[0]);
    return { trajectories: candidate.trajectories, model: basename(modelFolder), project: basename(dirname(dirname(modelFolder))), splits, split };
  }
  return undefined;
}

/** `train` first, then `val`, `test`, then the others by name: the order a person reads a run in. */
function splitOrder(a: string, b: string): number {
  const rank = (name: string) => {
    const known = ['train', 'val', 'test'].indexOf(name);
    return known < 0 ? 3 : known;
  };
  return rank(a) - rank(b) || a.localeCompare(b);
}
