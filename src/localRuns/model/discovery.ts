/**
 * Finds the official client's project folders and lists what they hold: projects → models (with the
 * facts of their model.json) → splits → how many steps each has logged. The layout has a fixed
 * depth (artLayout.ts) and each list a bound; a folder reached twice through symbolic links is
 * listed once, so a link loop ends where the layout does. Nothing here throws for a folder's
 * contents: what cannot be read becomes a note on its node.
 */
import { defaultArtFolder, discoveryBounds, isListedFolderName, modelFileName, modelsFolder, stepOfFileName, trajectoriesFolder } from './artLayout';
import type { FolderEntry, LocalFiles } from './localFiles';
import { readModelFile, type ModelFacts } from './modelFile';

/** A folder to look in, and why it is looked in. */
export interface ArtRootCandidate {
  path: string;
  origin: 'workspace' | 'setting';
}

export interface ArtRoot extends ArtRootCandidate {
  /** The folder as given was a project folder (it has `models/`) rather than an art path. */
  projectFolder: boolean;
  projects: LocalProject[];
  moreProjects: boolean;
}

export interface LocalProject {
  name: string;
  path: string;
  models: LocalModel[];
  moreModels: boolean;
}

export interface LocalModel {
  /** The folder's name: the client's storage name (a trainable model's run_name, else its name). */
  folderName: string;
  path: string;
  /** The project folder's name. */
  project: string;
  /** What model.json says, when it could be read. */
  facts?: ModelFacts;
  /** Why model.json gave nothing (absent files are not a problem: a plain model may have none). */
  note?: string;
  splits: LocalSplit[];
  moreSplits: boolean;
}

export interface LocalSplit {
  name: string;
  /** The split's folder: `…/trajectories/<split>`. */
  path: string;
  stepCount: number;
  firstStep?: number;
  latestStep?: number;
  /** More step files than were counted (discoveryBounds.steps). */
  moreSteps: boolean;
}

export interface StepFile {
  step: number;
  path: string;
  bytes: number;
}

export interface StepListing {
  steps: StepFile[];
  /** More step files than were listed (the earliest were left out). */
  more: boolean;
}

/** The roots to look in: each workspace folder's `.art`, then the configured folders, each once. */
export function rootCandidates(workspaceFolders: readonly string[], configured: readonly string[], files: Pick<LocalFiles, 'join'>): ArtRootCandidate[] {
  const candidates: ArtRootCandidate[] = [
    ...workspaceFolders.map((folder) => ({ path: files.join(folder, defaultArtFolder), origin: 'workspace' as const })),
    ...configured.map((path) => ({ path, origin: 'setting' as const })),
  ];
  const seen = new Set<string>();
  return candidates.filter((candidate) => !seen.has(candidate.path) && seen.add(candidate.path)).slice(0, discoveryBounds.roots);
}

/**
 * Lists every root that exists. `seen` holds the real paths of the folders already listed, so a
 * project or model reached again (a link, a root inside another) is left out.
 */
export async function discoverRoots(candidates: readonly ArtRootCandidate[], files: LocalFiles): Promise<ArtRoot[]> {
  const seen = new Set<string>();
  const roots: ArtRoot[] = [];
  for (const candidate of candidates.slice(0, discoveryBounds.roots)) {
    const root = await discoverRoot(candidate, files, seen);
    if (root) roots.push(root);
  }
  return roots;
}

async function discoverRoot(candidate: ArtRootCandidate, files: LocalFiles, seen: Set<string>): Promise<ArtRoot | undefined> {
  const real = await files.realPath(candidate.path);
  if (!real || seen.has(real)) return undefined;
  seen.add(real);
  const listing = await files.list(candidate.path, discoveryBounds.entries);
  if (!listing) return undefined;
  // A folder given in the settings may be one project rather than the folder of all of them.
  if (listing.entries.some((entry) => entry.name === modelsFolder && entry.kind === 'folder')) {
    const name = lastPart(candidate.path);
    const project = await discoverProject(name, candidate.path, files, seen, true);
    return { ...candidate, projectFolder: true, projects: project ? [project] : [], moreProjects: false };
  }
  const folders = sortedFolders(listing.entries);
  const projects: LocalProject[] = [];
  let looked = 0;
  // Folders that are not projects (no `models/`) do not count against the bound.
  for (; looked < folders.length && projects.length < discoveryBounds.projects; looked++) {
    const entry = folders[looked]!;
    const project = await discoverProject(entry.name, files.join(candidate.path, entry.name), files, seen, false);
    if (project) projects.push(project);
  }
  return { ...candidate, projectFolder: false, projects, moreProjects: listing.more || looked < folders.length };
}

async function discoverProject(name: string, path: string, files: LocalFiles, seen: Set<string>, alreadySeen: boolean): Promise<LocalProject | undefined> {
  if (!alreadySeen) {
    const real = await files.realPath(path);
    if (!real || seen.has(real)) return undefined;
    seen.add(real);
  }
  const modelsPath = files.join(path, modelsFolder);
  const listing = await files.list(modelsPath, discoveryBounds.entries);
  if (!listing) return undefined;
  // A link inside models/ back to models/ itself is not a model.
  const modelsReal = await files.realPath(modelsPath);
  if (modelsReal) seen.add(modelsReal);
  const folders = sortedFolders(listing.entries);
  const models: LocalModel[] = [];
  let looked = 0;
  for (; looked < folders.length && models.length < discoveryBounds.models; looked++) {
    const entry = folders[looked]!;
    const model = await discoverModel(entry.name, files.join(modelsPath, entry.name), name, files, seen);
    if (model) models.push(model);
  }
  return { name, path, models, moreModels: listing.more || looked < folders.length };
}

async function discoverModel(folderName: string, path: string, project: string, files: LocalFiles, seen: Set<string>): Promise<LocalModel | undefined> {
  const real = await files.realPath(path);
  if (!real || seen.has(real)) return undefined;
  seen.add(real);
  const listing = await files.list(path, discoveryBounds.entries);
  if (!listing) return undefined;
  const model: LocalModel = { folderName, path, project, splits: [], moreSplits: false };
  if (listing.entries.some((entry) => entry.name === modelFileName && entry.kind === 'file')) {
    const read = await files.readText(files.join(path, modelFileName), discoveryBounds.modelFileBytes);
    const reading = read ? readModelFile(read.text, read.whole, discoveryBounds.modelFileBytes) : { ok: false as const, note: 'model.json could not be read' };
    if (reading.ok) model.facts = reading.facts;
    else model.note = reading.note;
  }
  if (listing.entries.some((entry) => entry.name === trajectoriesFolder && entry.kind === 'folder')) {
    const trajectories = files.join(path, trajectoriesFolder);
    const splits = await files.list(trajectories, discoveryBounds.entries);
    const folders = splits ? sortedFolders(splits.entries) : [];
    let looked = 0;
    for (; looked < folders.length && model.splits.length < discoveryBounds.splits; looked++) {
      const splitPath = files.join(trajectories, folders[looked]!.name);
      // A split reached through a link to a folder already listed (the model itself) is not a split.
      const real = await files.realPath(splitPath);
      if (!real || seen.has(real)) continue;
      seen.add(real);
      model.splits.push(await countSplit(folders[looked]!.name, splitPath, files));
    }
    model.moreSplits = (splits?.more ?? false) || looked < folders.length;
  }
  return model;
}

async function countSplit(name: string, path: string, files: LocalFiles): Promise<LocalSplit> {
  const { steps, more } = await listSteps(path, files, discoveryBounds.steps, false);
  return { name, path, stepCount: steps.length, firstStep: steps[0]?.step, latestStep: steps.at(-1)?.step, moreSteps: more };
}

/**
 * A split folder's step files in step order, at most `limit` of them (the latest ones when there are
 * more, as a run going on is read for its latest steps; `more` says so), with their sizes when
 * `sizes`. Files that are not `<number>.parquet` are not steps.
 */
export async function listSteps(path: string, files: LocalFiles, limit: number, sizes: boolean): Promise<StepListing> {
  // Sizes cost a stat per file: asked for only when the list is short enough to be shown.
  const listing = await files.list(path, discoveryBounds.entries, sizes && limit <= discoveryBounds.stepsWithSizes);
  if (!listing) return { steps: [], more: false };
  const steps: StepFile[] = [];
  for (const entry of listing.entries) {
    if (entry.kind !== 'file') continue;
    const step = stepOfFileName(entry.name);
    if (step !== undefined) steps.push({ step, path: files.join(path, entry.name), bytes: entry.bytes });
  }
  steps.sort((a, b) => a.step - b.step || a.path.localeCompare(b.path));
  return { steps: steps.slice(Math.max(0, steps.length - limit)), more: listing.more || steps.length > limit };
}

/** Folders the client could have written, by name, so the tree's order is stable. */
function sortedFolders(entries: readonly FolderEntry[]): FolderEntry[] {
  return entries.filter((entry) => entry.kind === 'folder' && isListedFolderName(entry.name)).sort((a, b) => a.name.localeCompare(b.name));
}

function lastPart(path: string): string {
  const parts = path.split(/[\\/]+/).filter(Boolean);
  return parts.at(-1) ?? path;
}

/** The model's name as the platform knows it: model.json's name, else its folder's. */
export function platformName(model: LocalModel): string {
  return model.facts?.name ?? model.folderName;
}

/** All steps logged across its splits, and the latest of any split. */
export function modelSteps(model: LocalModel): { steps: number; latest?: number } {
  let steps = 0;
  let latest: number | undefined;
  for (const split of model.splits) {
    steps += split.stepCount;
    if (split.latestStep !== undefined) latest = Math.max(latest ?? split.latestStep, split.latestStep);
  }
  return { steps, latest };
}
