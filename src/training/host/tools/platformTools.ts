import type { TrainingJob, TrainingJobEvent } from '../../../platform/client/types';
import { readNewEvents, RecentCursors } from '../../model/eventPages';
import { describeJobs, describeModels, describePlatformStatus, type ApiCheck, type JobListing, type ModelListing } from '../../../platform/agent/platformText';
import { foreignToken } from '../../../platform/agent/foreignText';
import { optionalId, optionalNumber, requiredId } from '../../../platform/agent/toolInput';
import type { Services } from '../../../platform/host/services';
import { platformReadiness } from '../../../platform/host/readiness';
import { systemCheckLine } from '../../../platform/health/health';
import type { AgentTool } from '../../../platform/agent/agentTool';

/** Jobs listed with their state at most: each is one request. */
const maxListedJobs = 20;
/** Requests in flight at once while listing jobs or models. */
const listingConcurrency = 4;
/** Catalogue ids named at most. */
const maxCatalogueIds = 50;
/** A job's events are read in pages of 100, at most this many pages (5,000 events). */
const maxEventPages = 50;

export function platformStatusTool(services: Services): AgentTool<Record<string, never>> {
  return {
    name: 'rlstudio_platform_status',
    needsPlatform: false,
    read: () => ({}),
    progress: () => 'Checking the RL platform',
    run: async (_input, signal) => {
      const current = services.settings.current;
      const readiness = await platformReadiness(services);
      const status: Parameters<typeof describePlatformStatus>[0] = { trainingUrl: current.trainingApiUrl, inferenceUrl: current.inferenceApiUrl, signedIn: readiness.signedIn };
      if (readiness.ready) {
        const client = await services.client();
        const timed = async (work: () => Promise<string | undefined>): Promise<ApiCheck> => {
          const started = performance.now();
          try {
            const detail = await work();
            return { ok: true, ms: performance.now() - started, ...(detail ? { detail } : {}) };
          } catch (error) {
            return { ok: false, problem: services.describeFailure(error).message };
          }
        };
        [status.training, status.inference] = await Promise.all([
          timed(async () => {
            const check = await client.training.systemCheck({ signal });
            return systemCheckLine(check, (name) => foreignToken(name, 60));
          }),
          timed(async () => `${(await client.inference.listModels({ signal })).data.length} catalogue models`),
        ]);
      }
      return describePlatformStatus(status);
    },
  };
}

export function listModelsTool(services: Services): AgentTool<{ modelId?: string; checkpoints: number }> {
  return {
    name: 'rlstudio_list_models',
    needsPlatform: true,
    read: (input) => ({ ...optionalField('modelId', optionalId(input, 'modelId')), checkpoints: optionalNumber(input, 'checkpoints', { min: 0, max: 100, integer: true }) ?? 5 }),
    progress: (input) => (input.modelId ? `Listing the checkpoints of ${input.modelId}` : 'Listing training models and checkpoints'),
    run: async (input, signal) => {
      const client = await services.client();
      const remembered = services.remembered.models.list();
      const models = input.modelId ? remembered.filter((model) => model.id === input.modelId) : remembered;
      const listings = await mapBounded(models, listingConcurrency, async (model): Promise<ModelListing> => {
        if (input.checkpoints === 0) return { model };
        try {
          const page = await client.training.listCheckpoints(model.id, { order: 'desc', limit: input.checkpoints }, { signal });
          return { model, checkpoints: page.data.slice(0, input.checkpoints), moreCheckpoints: page.has_more === true };
        } catch (error) {
          return { model, problem: services.describeFailure(error).message };
        }
      });
      let catalogue: Parameters<typeof describeModels>[1];
      if (!input.modelId) {
        try {
          const ids = (await client.inference.listModels({ signal })).data.map((model) => model.id);
          catalogue = { ids: ids.slice(0, maxCatalogueIds), more: Math.max(0, ids.length - maxCatalogueIds) };
        } catch (error) {
          catalogue = { problem: services.describeFailure(error).message };
        }
      }
      const text = describeModels(listings, catalogue);
      return input.modelId && listings.length === 0 ? `No training model with id ${foreignToken(input.modelId)} is in RL Studio. ${text}` : text;
    },
  };
}

/** Lists the followed jobs with their states; its facts are the listings, which `@rlstudio /jobs` reads. */
export function listJobsTool(services: Services): AgentTool<Record<string, never>, undefined, JobListing[]> {
  return {
    name: 'rlstudio_list_jobs',
    needsPlatform: true,
    read: () => ({}),
    progress: () => 'Listing followed training jobs',
    run: async (_input, signal) => {
      const client = await services.client();
      const jobs = [...services.remembered.jobs.list()].sort((a, b) => b.addedAt.localeCompare(a.addedAt));
      const listed = jobs.slice(0, maxListedJobs);
      const listings = await mapBounded(listed, listingConcurrency, async (job): Promise<JobListing> => {
        const listing: JobListing = { id: job.id, addedAt: job.addedAt, ...optionalField('label', job.label), ...optionalField('modelId', job.modelId), ...optionalField('kind', job.kind) };
        try {
          listing.record = await client.training.getTrainingJob(job.id, { signal });
        } catch (error) {
          listing.problem = services.describeFailure(error).message;
        }
        return listing;
      });
      return { text: describeJobs(listings, jobs.length - listed.length), facts: listings };
    },
  };
}

/** A job's record and events, read within the page cap; `more` when the cap stopped the reading. */
export async function readJob(services: Services, jobId: string, signal: AbortSignal): Promise<{ record: TrainingJob; events: TrainingJobEvent[]; more: boolean }> {
  const client = await services.client();
  const record = await client.training.getTrainingJob(jobId, { signal });
  const read = await readNewEvents(
    (after, pageSignal) => client.training.listTrainingJobEvents(jobId, { limit: 100, ...(after ? { after } : {}) }, { signal: pageSignal }),
    undefined,
    () => false,
    new RecentCursors(),
    { maxPages: maxEventPages },
    signal,
  );
  return { record, events: read.events, more: read.more };
}

export function jobIdInput(input: Record<string, unknown>): { jobId: string } {
  return { jobId: requiredId(input, 'jobId') };
}

/** Runs `work` on each item, at most `limit` at once, keeping the order. */
export async function mapBounded<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** `{ [name]: value }`, or nothing when the value is undefined (the types are exact about optional fields). */
export function optionalField<K extends string, V>(name: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [name]: value }) as { [P in K]?: V };
}
