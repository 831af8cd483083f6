/**
 * Reads a run's step files into per-step figures: a few files at a time (never more, whatever the
 * run's length), in an order that spreads over the whole run first (coarseToFine), handing the
 * figures on in batches. The first batch is handed on as soon as its files are read, so the run
 * view draws its first chart before the rest is read; each later batch fills in. A file that cannot
 * be read is a step with a reason, not a failure of the run.
 */
import { errorMessage } from '../../platform/client/errorMessage';
import { parquetFileSource } from '../../platform/parquet/parquetFile';
import { openTrajectoryLog, readLoggedGroups } from '../../platform/parquet/trajectoryLog';
import type { StepFigures } from '../protocol';
import type { StepFile } from './discovery';
import { coarseToFine, StepTally, type GroupFacts } from './stepFigures';

/** The rollout inspector's summary of a parsed group (its `summarizeGroup`, with its thresholds). */
export type SummarizeGroup = (group: unknown, index: number, rowStart: number) => GroupFacts | undefined;

/** Reads one step file's figures; throws with a reason a person can read. */
export type StepFileReader = (path: string, signal: AbortSignal) => Promise<StepFigures>;

/** Step files read at once. */
export const stepReadConcurrency = 4;
/** Steps handed on together after the first batch. */
export const laterBatchSteps = 24;
/** Groups read of one step file at most: the figures then cover these and say how many were read. */
export const maxGroupsPerStep = 100_000;

/** The figures of an official client's step file (`NNNN.parquet`), read a batch of rows at a time. */
export function parquetStepReader(summarize: SummarizeGroup, flags: readonly string[]): StepFileReader {
  return async (path, signal) => {
    const source = await parquetFileSource(path);
    try {
      const log = await openTrajectoryLog(source);
      const tally = new StepTally(flags);
      let index = 0;
      for await (const logged of readLoggedGroups(log, { signal })) {
        tally.add(summarize(logged.group, index, logged.rowStart));
        if (++index >= maxGroupsPerStep) break;
      }
      return tally.figures();
    } finally {
      await source.close();
    }
  };
}

export interface StepResult {
  step: StepFile;
  figures?: StepFigures;
  reason?: string;
}

export interface RunReadingOptions {
  read: StepFileReader;
  /** A batch of steps read (the first after `concurrency` files, then every `laterBatchSteps`). */
  onBatch(results: StepResult[]): void;
  signal: AbortSignal;
  concurrency?: number;
}

/** Reads `steps` (in coarse-to-fine order) and resolves when all are read or the signal aborts. */
export async function readRunSteps(steps: readonly StepFile[], options: RunReadingOptions): Promise<void> {
  const order = coarseToFine(steps.length);
  const concurrency = Math.max(1, options.concurrency ?? stepReadConcurrency);
  let next = 0;
  let pending: StepResult[] = [];
  let firstSent = false;
  const flush = () => {
    if (pending.length === 0 || options.signal.aborted) return;
    const batch = pending;
    pending = [];
    firstSent = true;
    options.onBatch(batch);
  };
  const worker = async () => {
    while (next < order.length && !options.signal.aborted) {
      const step = steps[order[next++]!]!;
      // Read first, then pushed: `pending` is another list once a batch went out meanwhile.
      const result = await readOne(step, options);
      pending.push(result);
      if (pending.length >= (firstSent ? laterBatchSteps : Math.min(concurrency, steps.length))) flush();
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, steps.length) }, worker));
  flush();
}

async function readOne(step: StepFile, options: RunReadingOptions): Promise<StepResult> {
  try {
    return { step, figures: await options.read(step.path, options.signal) };
  } catch (error) {
    return { step, reason: errorMessage(error) };
  }
}
