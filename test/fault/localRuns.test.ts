/**
 * Hostile folders against the real discovery of Local Runs and the run view's listing, on real
 * folders on disk: a split of 10,000 step files, more projects than are listed, a 50 MB model.json
 * holding a key, a malformed one, and symbolic links that loop back into the layout. Each ends in a
 * bounded listing with notes a person can read, never an exception, a walk without end, the secret
 * shown, or a long stall of the event loop.
 */
import { strict as assert } from 'node:assert';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, symlinkSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { diskFiles } from '../../src/localRuns/host/diskFiles';
import { discoveryBounds } from '../../src/localRuns/model/artLayout';
import { discoverRoots, listSteps, rootCandidates } from '../../src/localRuns/model/discovery';
import { modelTooltip } from '../../src/localRuns/model/nodeText';
import { measure } from './support/measure';

const secret = 'sk-hostile-0123456789abcdef';

describe('fault: hostile local run folders', function () {
  this.timeout(120_000);
  let workspace: string;

  before(() => {
    workspace = mkdtempSync(join(tmpdir(), 'rl-studio-hostile-runs-'));
    const art = join(workspace, '.art');
    // A split of 10,000 steps.
    const split = join(art, 'proj', 'models', 'long', 'trajectories', 'train');
    mkdirSync(split, { recursive: true });
    for (let step = 0; step < 10_000; step++) closeSync(openSync(join(split, `${String(step).padStart(5, '0')}.parquet`), 'w'));
    // A 50 MB model.json with the key at its start, and a malformed one.
    const huge = join(art, 'proj', 'models', 'huge');
    mkdirSync(huge, { recursive: true });
    const handle = openSync(join(huge, 'model.json'), 'w');
    writeSync(handle, `{"inference_api_key": "${secret}", "name": "huge", "padding": "`);
    const chunk = 'x'.repeat(1024 * 1024);
    for (let mb = 0; mb < 50; mb++) writeSync(handle, chunk);
    writeSync(handle, '"}');
    closeSync(handle);
    mkdirSync(join(art, 'proj', 'models', 'broken'), { recursive: true });
    writeFileSync(join(art, 'proj', 'models', 'broken', 'model.json'), `{"name": "broken", "inference_api_key": "${secret}",,}`);
    // Links that loop: a project pointing at the art folder, a model at its own models folder, a split at its model.
    symlinkSync(art, join(art, 'loop'));
    symlinkSync(join(art, 'proj', 'models'), join(art, 'proj', 'models', 'self'));
    symlinkSync(join(art, 'proj', 'models', 'long'), join(split, '..', 'back'));
    symlinkSync(join(art, 'proj'), join(art, 'proj-again'));
    // More projects than are listed.
    for (let project = 0; project < discoveryBounds.projects + 10; project++) mkdirSync(join(art, `z${String(project).padStart(3, '0')}`, 'models', 'm'), { recursive: true });
  });

  after(() => rmSync(workspace, { recursive: true, force: true }));

  it('lists everything within its bounds, each folder once, and names no secret', async () => {
    const { result: roots, measurement } = await measure(() => discoverRoots(rootCandidates([workspace], [], diskFiles), diskFiles));
    const root = roots[0]!;
    assert.equal(root.projects.length, discoveryBounds.projects);
    assert.equal(root.moreProjects, true);
    const proj = root.projects.find((project) => project.name === 'proj')!;
    assert.deepEqual(
      proj.models.map((model) => model.folderName),
      ['broken', 'huge', 'long'],
      'the linked models folder is not listed again; the project reached through links is listed once',
    );
    assert.equal(root.projects.filter((project) => project.name === 'loop' || project.name === 'proj-again').length, 0);
    const [broken, huge, long] = proj.models;
    assert.match(huge!.note!, /larger than 64 KB/);
    assert.match(broken!.note!, /not valid JSON/);
    assert.deepEqual(
      long!.splits.map((split) => [split.name, split.stepCount, split.latestStep, split.moreSteps]),
      [['train', 10_000, 9_999, false]],
    );
    const shown = JSON.stringify(roots) + proj.models.map((model) => modelTooltip(model, undefined)).join('\n');
    assert.ok(!shown.includes(secret));
    assert.ok(measurement.peakHeapGrowthMiB < 64, `heap grew ${measurement.peakHeapGrowthMiB.toFixed(1)} MiB`);
    assert.ok(measurement.maxEventLoopDelayMs < 200, `the event loop stalled ${measurement.maxEventLoopDelayMs.toFixed(0)} ms`);
  });

  it('lists a split of 10,000 steps up to the run view’s bound and the tree’s, saying there are more', async () => {
    const split = join(workspace, '.art', 'proj', 'models', 'long', 'trajectories', 'train');
    const { result: run, measurement } = await measure(() => listSteps(split, diskFiles, discoveryBounds.runSteps, true));
    assert.equal(run.steps.length, discoveryBounds.runSteps);
    assert.equal(run.more, true);
    assert.equal(run.steps[0]!.step, 10_000 - discoveryBounds.runSteps, 'the latest steps');
    assert.equal(run.steps.at(-1)!.step, 9_999);
    const tree = await listSteps(split, diskFiles, discoveryBounds.treeSteps, true);
    assert.equal(tree.steps.length, discoveryBounds.treeSteps);
    assert.equal(tree.more, true);
    assert.ok(measurement.maxEventLoopDelayMs < 200, `the event loop stalled ${measurement.maxEventLoopDelayMs.toFixed(0)} ms`);
  });

  it('reads a folder entry by entry up to its bound, never whole', async () => {
    const split = join(workspace, '.art', 'proj', 'models', 'long', 'trajectories', 'train');
    const listing = await diskFiles.list(split, 100);
    assert.equal(listing!.entries.length, 100);
    assert.equal(listing!.more, true);
  });
});
