import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { diskFiles } from '../../../src/localRuns/host/diskFiles';
import { listSteps } from '../../../src/localRuns/model/discovery';
import { readRunFolder } from '../../../src/localRuns/model/runFolder';
import { parquetStepReader, readRunSteps, type StepResult } from '../../../src/localRuns/model/runReading';
import { SplitSteps } from '../../../src/localRuns/model/splitSteps';
import { coarseToFine, StepTally } from '../../../src/localRuns/model/stepFigures';
import { groupFlags } from '../../../src/rollouts/model/groupSummaryShape';
import { summarizeGroup } from '../../../src/rollouts/model/groupSummary';
import { loggable, writeArtParquet } from '../../support/artParquet';

const fixtureGroups = loggable(JSON.parse(readFileSync(join(__dirname, '../../../../test/fixtures/art/trajectories.json'), 'utf8')) as unknown[]) as Record<string, any>[];

const summarize = (group: unknown, index: number, rowStart: number) => summarizeGroup(group, { index, line: rowStart, offset: 0, bytes: 0 }).summary;
const read = parquetStepReader(summarize, groupFlags);

/** A group of `rewards`, each trajectory one plain trained answer. */
function groupOf(rewards: number[]): Record<string, unknown> {
  return {
    trajectories: rewards.map((reward, index) => ({
      messages_and_choices: [
        { role: 'user', content: 'Play.' },
        { finish_reason: 'stop', index: 0, message: { role: 'assistant', content: `I place my mark in square ${index}.` } },
      ],
      reward,
      metrics: {},
      metadata: {},
      logs: [],
    })),
    exceptions: [],
    metadata: {},
    metrics: {},
    logs: [],
  };
}

describe('local runs: the figures of each step', () => {
  let folder: string;

  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'rl-studio-run-'));
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it("reads a step file as the official client writes it: groups, trajectories, mean reward and the inspector's flags", async () => {
    const path = join(folder, '0000.parquet');
    // A group where every trajectory got the same reward is flagged "no signal".
    await writeArtParquet(path, [groupOf([1, 1]), groupOf([0, 0.5, 1, 0.5])]);
    const figures = await read(path, new AbortController().signal);
    assert.equal(figures.groups, 2);
    assert.equal(figures.trajectories, 6);
    assert.equal(figures.meanReward, 4 / 6);
    assert.equal(figures.flagCounts[groupFlags.indexOf('noSignal')], 1);
    assert.equal(figures.unreadableGroups, 0);
  });

  it('reads every fixture group of the official client’s shapes without a failure', async () => {
    const path = join(folder, '0001.parquet');
    await writeArtParquet(path, fixtureGroups);
    const figures = await read(path, new AbortController().signal);
    assert.equal(figures.groups, fixtureGroups.length);
    assert.equal(
      figures.trajectories,
      fixtureGroups.reduce((sum, group) => sum + (group.trajectories as unknown[]).length, 0),
    );
  });

  it('reads a run a few files at a time, the first batch over the whole run, and a broken file as a step with its reason', async () => {
    const split = join(folder, 'trajectories', 'train');
    mkdirSync(split, { recursive: true });
    for (let step = 0; step < 10; step++) await writeArtParquet(join(split, `${String(step).padStart(4, '0')}.parquet`), [groupOf([step / 10, step / 10 + 0.1])]);
    writeFileSync(join(split, '0010.parquet'), 'not parquet at all');
    const { steps } = await listSteps(split, diskFiles, 100, true);
    const batches: StepResult[][] = [];
    let reading = 0;
    let most = 0;
    const counted = async (path: string, signal: AbortSignal) => {
      most = Math.max(most, ++reading);
      try {
        return await read(path, signal);
      } finally {
        reading--;
      }
    };
    await readRunSteps(steps, { read: counted, signal: new AbortController().signal, onBatch: (batch) => batches.push(batch) });
    assert.ok(most <= 4, `at most 4 files at once (${most})`);
    assert.equal(batches[0]!.length, 4, 'the first chart comes after the first batch');
    assert.deepEqual(
      batches[0]!.map((result) => result.step.step).sort((a, b) => a - b),
      [0, 3, 5, 10],
      'the first, a quarter, the middle and the last step, in the order their files were read',
    );
    const all = batches.flat();
    assert.equal(all.length, 11);
    const broken = all.find((result) => result.step.step === 10)!;
    assert.equal(broken.figures, undefined);
    assert.match(broken.reason!, /not Parquet/);
    assert.equal(all.find((result) => result.step.step === 4)!.figures!.meanReward, 0.45);
  });

  it('stops reading when the view closes', async () => {
    const controller = new AbortController();
    const steps = Array.from({ length: 50 }, (_, step) => ({ step, path: `/nowhere/${step}.parquet`, bytes: 0 }));
    let reads = 0;
    await readRunSteps(steps, {
      signal: controller.signal,
      read: async () => {
        if (++reads === 6) controller.abort();
        return new StepTally([]).figures();
      },
      onBatch: () => undefined,
    });
    assert.ok(reads <= 9, `reads stopped (${reads})`);
  });

  it('orders steps coarse to fine: each once, spread over the run first', () => {
    for (const count of [0, 1, 2, 3, 7, 100, 501]) {
      const order = coarseToFine(count);
      assert.equal(order.length, count);
      assert.equal(new Set(order).size, count);
    }
    assert.deepEqual(coarseToFine(9).slice(0, 5), [8, 0, 4, 2, 6]);
  });

  it('counts a group without trajectories as not readable, and weighs the mean reward by trajectories', () => {
    const tally = new StepTally(['noSignal', 'exceptions']);
    tally.add({ trajectoryCount: 1, reward: { mean: 1 }, flags: ['noSignal'] });
    tally.add({ trajectoryCount: 3, reward: { mean: 0 }, flags: ['exceptions', 'unknown'] });
    tally.add(undefined);
    assert.deepEqual(tally.figures(), { groups: 2, trajectories: 4, meanReward: 0.25, flagCounts: [1, 1], unreadableGroups: 1 });
  });

  it('keeps the figures of unchanged steps on a new listing, and reads new and changed ones', () => {
    const steps = new SplitSteps();
    const file = (step: number, bytes = 10) => ({ step, path: `/run/train/${step}.parquet`, bytes });
    assert.deepEqual(
      steps.relist({ steps: [file(0), file(1)], more: false }).map((entry) => entry.step),
      [0, 1],
    );
    steps.record([
      { step: file(0), figures: new StepTally([]).figures() },
      { step: file(1), reason: 'broken' },
    ]);
    const next = steps.relist({ steps: [file(0), file(1, 20), file(2)], more: false });
    assert.deepEqual(
      next.map((entry) => entry.step),
      [1, 2],
    );
    assert.deepEqual(
      steps.list().map((row) => row.state),
      ['read', 'pending', 'pending'],
    );
    assert.equal(steps.changed('/run/train/0.parquet')?.step, 0);
    steps.relist({ steps: [file(2)], more: true });
    assert.deepEqual(
      steps.list().map((row) => row.step),
      [2],
    );
    assert.equal(steps.record([{ step: file(0), reason: 'late' }]).length, 0, 'a step no longer listed is not recorded');
  });

  it('opens a trajectories folder, a split folder or a model folder as the same run', async () => {
    const model = join(folder, 'proj', 'models', 'agent');
    for (const split of ['val', 'train', 'zeta']) mkdirSync(join(model, 'trajectories', split), { recursive: true });
    const fromTrajectories = await readRunFolder(join(model, 'trajectories'), diskFiles);
    assert.deepEqual(fromTrajectories, { trajectories: join(model, 'trajectories'), model: 'agent', project: 'proj', splits: ['train', 'val', 'zeta'], split: 'train' });
    assert.equal((await readRunFolder(join(model, 'trajectories', 'val'), diskFiles))?.split, 'val');
    assert.equal((await readRunFolder(model, diskFiles))?.trajectories, join(model, 'trajectories'));
    assert.equal(await readRunFolder(join(folder, 'proj'), diskFiles), undefined);
  });
});
