/**
 * The development seed: lets `npm start` (test/vscode/demo.ts) open a workbench that is already
 * signed in to the local emulator and already lists its demo models and training jobs, so nobody
 * types a key, an id or a name to see the extension at work.
 *
 * An installed extension must never sign itself in or add data on its own, so this acts only when
 * every one of these holds, checked in this order:
 * 1. VS Code runs the extension in ExtensionMode.Development, which it does only for an extension
 *    loaded with --extensionDevelopmentPath (the demo does that for desktop `code` and, through the
 *    workbench's development payload, for code-server). A .vsix always runs in Production mode and
 *    the extension's tests in Test mode: there this returns 'skipped' before it reads the
 *    environment or any file.
 * 2. RL_STUDIO_DEVELOPMENT_SEED names a seed file (the demo sets it for the VS Code it starts).
 * 3. The seed's two API addresses are on this machine (loopback) and are exactly the addresses RL
 *    Studio is configured with (the demo writes them into the user settings of its own VS Code
 *    profile). So the key in a seed is only ever stored for the server it was written for, and a
 *    key a developer keeps for another address is never replaced.
 *
 * What it does: stores the key through the credential store (VS Code's SecretStorage, as Sign In
 * does; nothing else keeps it), and makes the remembered models and jobs for the configured training
 * address those of the seed. The emulator keeps nothing between runs, so whatever this profile
 * remembered for that address from an earlier run no longer exists there and is dropped. A seed is
 * applied once per demo run (its runId, kept in globalState): reloading the window does not bring
 * back a job the user removed or sign them in again after Sign Out.
 */
import * as vscode from 'vscode';
import { open } from 'node:fs/promises';
import { errorMessage } from '../client/errorMessage';
import type { Services } from './services';
import type { RememberedJob, RememberedList, RememberedModel } from './rememberedItems';

/** The environment variable that names the seed file. */
export const developmentSeedVariable = 'RL_STUDIO_DEVELOPMENT_SEED';

/** A seed is a few ids and names: anything bigger is not one of ours. */
export const maxSeedFileBytes = 64 * 1024;
export const maxSeedEntries = 50;
const maxFieldLength = 300;
const appliedRunKey = 'rlStudio.developmentSeed.appliedRun';

/** The seed file, as demo.ts writes it (JSON). */
export interface DevelopmentSeed {
  version: 1;
  /** Differs for every start of the demo; a seed is applied once per run. */
  runId: string;
  trainingApiUrl: string;
  inferenceApiUrl: string;
  apiKey: string;
  /** Newest first, as the Models view lists them. */
  models: RememberedModel[];
  /** Newest first, as the Training Jobs view lists them; `addedAt` is filled in when applied. */
  jobs: Array<Omit<RememberedJob, 'addedAt'>>;
}

export type DevelopmentSeedResult =
  { status: 'skipped'; reason: 'not-development' | 'no-seed-file' | 'already-applied' } | { status: 'refused'; reason: string } | { status: 'applied'; models: number; jobs: number };

/** What the seed needs of the services: the same calls Sign In and Add by ID make. */
export type SeedServices = Pick<Services, 'context' | 'credentials' | 'remembered' | 'log' | 'settings'>;

export interface SeedDependencies {
  environment: NodeJS.ProcessEnv;
  /** Reads at most `limit` bytes of a file (more means too big). Tests count the calls. */
  readFile(path: string, limit: number): Promise<Buffer>;
}

const defaultDependencies: SeedDependencies = { environment: process.env, readFile: readAtMost };

/** Applies the development seed when all the conditions above hold; never throws. */
export async function applyDevelopmentSeed(services: SeedServices, dependencies: SeedDependencies = defaultDependencies): Promise<DevelopmentSeedResult> {
  // First, before anything else is looked at: outside development nothing here runs.
  if (services.context.extensionMode !== vscode.ExtensionMode.Development) return { status: 'skipped', reason: 'not-development' };
  const file = dependencies.environment[developmentSeedVariable];
  if (!file) return { status: 'skipped', reason: 'no-seed-file' };
  try {
    const result = await applySeedFile(services, dependencies, file);
    if (result.status === 'refused') services.log.warn(`development seed ${file} not applied: ${result.reason}`);
    return result;
  } catch (error) {
    const reason = services.log.redact(errorMessage(error));
    services.log.warn(`development seed ${file} not applied: ${reason}`);
    return { status: 'refused', reason };
  }
}

async function applySeedFile(services: SeedServices, dependencies: SeedDependencies, file: string): Promise<DevelopmentSeedResult> {
  const bytes = await dependencies.readFile(file, maxSeedFileBytes);
  if (bytes.length > maxSeedFileBytes) return { status: 'refused', reason: `the file is larger than ${maxSeedFileBytes} bytes` };
  const parsed = parseDevelopmentSeed(bytes.toString('utf8'));
  if (typeof parsed === 'string') return { status: 'refused', reason: parsed };
  const seed = parsed;

  const configured = services.settings.current;
  for (const [name, seedUrl, configuredUrl] of [
    ['training', seed.trainingApiUrl, configured.trainingApiUrl],
    ['inference', seed.inferenceApiUrl, configured.inferenceApiUrl],
  ] as const) {
    if (!isLoopback(seedUrl)) return { status: 'refused', reason: `its ${name} API address ${seedUrl} is not on this machine` };
    if (trimSlashes(seedUrl) !== configuredUrl) {
      return { status: 'refused', reason: `its ${name} API address ${seedUrl} is not the configured one (${configuredUrl || 'none'})` };
    }
  }

  const { globalState } = services.context;
  if (globalState.get<string>(appliedRunKey) === seed.runId) return { status: 'skipped', reason: 'already-applied' };

  // Lists first and the key last: signing in refreshes the views, which then find everything.
  await replaceList(
    services.remembered.jobs,
    seed.jobs.map((job) => ({ ...job, addedAt: new Date().toISOString() })),
  );
  await replaceList(services.remembered.models, seed.models);
  services.log.addSecret(seed.apiKey);
  await services.credentials.setApiKey(seed.apiKey);
  await globalState.update(appliedRunKey, seed.runId);
  services.log.info(`development seed: signed in to ${configured.trainingApiUrl} and listed ${seed.models.length} models and ${seed.jobs.length} training jobs`);
  return { status: 'applied', models: seed.models.length, jobs: seed.jobs.length };
}

/** Makes a remembered list hold exactly `items`, in their order (the list adds newest first). */
async function replaceList<T extends { id: string }>(list: RememberedList<T>, items: T[]): Promise<void> {
  const keep = new Set(items.map((item) => item.id));
  for (const stale of list.list().filter((item) => !keep.has(item.id))) await list.remove(stale.id);
  for (const item of [...items].reverse()) await list.add(item);
}

/** The seed in `text`, or why it is not one. Checks every field: the file comes from outside. */
export function parseDevelopmentSeed(text: string): DevelopmentSeed | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'it is not JSON';
  }
  if (!isRecord(value) || value.version !== 1) return 'it is not a version 1 seed';
  for (const key of ['runId', 'trainingApiUrl', 'inferenceApiUrl', 'apiKey'] as const) {
    if (!isText(value[key])) return `"${key}" must be a non-empty string of at most ${maxFieldLength} characters`;
  }
  const { models, jobs } = value;
  if (!Array.isArray(models) || !Array.isArray(jobs)) return '"models" and "jobs" must be arrays';
  if (models.length > maxSeedEntries || jobs.length > maxSeedEntries) return `it lists more than ${maxSeedEntries} models or jobs`;
  const seedModels: RememberedModel[] = [];
  for (const model of models) {
    if (!isRecord(model) || !isId(model.id)) return 'a model needs an "id" without spaces';
    const fields = ['entity', 'project', 'name', 'base_model'] as const;
    if (fields.some((field) => model[field] !== undefined && typeof model[field] !== 'string')) return `model ${model.id}: ${fields.join(', ')} must be strings`;
    const names = fields.map((field) => (typeof model[field] === 'string' ? (model[field] as string).slice(0, maxFieldLength) : ''));
    seedModels.push({ id: model.id, entity: names[0]!, project: names[1]!, name: names[2]!, base_model: names[3]! });
  }
  const seedJobs: DevelopmentSeed['jobs'] = [];
  for (const job of jobs) {
    if (!isRecord(job) || !isId(job.id)) return 'a job needs an "id" without spaces';
    if (job.modelId !== undefined && !isId(job.modelId)) return `job ${job.id}: "modelId" must be an id`;
    if (job.kind !== undefined && job.kind !== 'rl' && job.kind !== 'sft') return `job ${job.id}: "kind" must be "rl" or "sft"`;
    if (job.label !== undefined && !isText(job.label)) return `job ${job.id}: "label" must be a short string`;
    seedJobs.push({ id: job.id, modelId: job.modelId as string | undefined, kind: job.kind as 'rl' | 'sft' | undefined, label: job.label as string | undefined });
  }
  return {
    version: 1,
    runId: value.runId as string,
    trainingApiUrl: value.trainingApiUrl as string,
    inferenceApiUrl: value.inferenceApiUrl as string,
    apiKey: value.apiKey as string,
    models: seedModels,
    jobs: seedJobs,
  };
}

/** http(s) on 127.0.0.1, ::1 or localhost: the emulator, never a server elsewhere. */
function isLoopback(address: string): boolean {
  try {
    const url = new URL(address);
    return (url.protocol === 'http:' || url.protocol === 'https:') && ['127.0.0.1', '[::1]', 'localhost'].includes(url.hostname);
  } catch {
    return false;
  }
}

/** As the settings store normalises an address. */
function trimSlashes(address: string): string {
  return address.trim().replace(/\/+$/, '');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isText(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '' && value.length <= maxFieldLength;
}

function isId(value: unknown): value is string {
  return isText(value) && !/\s/.test(value);
}

/** Reads up to limit + 1 bytes, so a caller can tell a file that is too big without reading it all. */
export async function readAtMost(path: string, limit: number): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(limit + 1);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
