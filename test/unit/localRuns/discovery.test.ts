import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { diskFiles } from '../../../src/localRuns/host/diskFiles';
import { discoverRoots, listSteps, modelSteps, platformName, rootCandidates, type ArtRoot } from '../../../src/localRuns/model/discovery';
import { configuredFolders, isInside } from '../../../src/localRuns/model/configuredFolders';
import { readModelFile } from '../../../src/localRuns/model/modelFile';
import { modelDescription, modelTooltip, splitDescription, splitTooltip } from '../../../src/localRuns/model/nodeText';
import { stepOfFileName } from '../../../src/localRuns/model/artLayout';

const secret = 'sk-live-DO-NOT-SHOW-0123456789';
const secretUrl = 'https://secret-inference.example.com/v1';

/** A model.json as the official client's local backend writes it: the whole model, inference key included. */
function modelJson(fields: Record<string, unknown>): string {
  return JSON.stringify({
    name: 'agent-001',
    project: 'tic-tac-toe',
    entity: null,
    id: null,
    run_id: null,
    config: { learning_rate: 1e-5 },
    trainable: true,
    base_model: 'Qwen/Qwen2.5-7B-Instruct',
    run_name: 'agent-001',
    inference_api_key: secret,
    inference_base_url: secretUrl,
    inference_model_name: null,
    ...fields,
  });
}

function touch(path: string, text = ''): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
}

/** Everything discovery gives and every word the tree shows of it, as one text. */
function everythingShown(roots: ArtRoot[]): string {
  const words: string[] = [JSON.stringify(roots)];
  for (const model of roots.flatMap((root) => root.projects.flatMap((project) => project.models))) {
    words.push(modelDescription(model, undefined), modelTooltip(model, 'id-1'));
    for (const split of model.splits) words.push(splitDescription(split), splitTooltip(model, split));
  }
  return words.join('\n');
}

describe('local runs: discovery of the official client’s folders', () => {
  let workspace: string;

  beforeEach(() => {
    workspace = mkdtempSync(join(tmpdir(), 'rl-studio-local-runs-'));
  });
  afterEach(() => rmSync(workspace, { recursive: true, force: true }));

  it('lists projects, models (with model.json’s facts only), splits and steps, and never the secret model.json holds', async () => {
    const model = join(workspace, '.art', 'tic-tac-toe', 'models', 'agent-001');
    touch(join(model, 'model.json'), modelJson({ entity: 'my-team', id: 'f5b1e7c2-0000-4000-8000-000000000001' }));
    touch(join(model, 'history.jsonl'), '{"step": 1, "train/reward": 0.5}\n');
    touch(join(model, 'state.json'), '{}');
    mkdirSync(join(model, '0001'), { recursive: true });
    for (const step of [0, 1, 2, 10]) touch(join(model, 'trajectories', 'train', `${String(step).padStart(4, '0')}.parquet`), 'x');
    touch(join(model, 'trajectories', 'val', '0000.parquet'), 'x');
    touch(join(model, 'trajectories', 'train', 'notes.txt'), 'not a step');
    // A plain model: no model.json.
    touch(join(workspace, '.art', 'tic-tac-toe', 'models', 'judge', 'trajectories', 'test', '0003.parquet'), 'x');
    // Not a project: no models/.
    mkdirSync(join(workspace, '.art', 'scratch'), { recursive: true });

    const roots = await discoverRoots(rootCandidates([workspace], [], diskFiles), diskFiles);
    assert.equal(roots.length, 1);
    assert.deepEqual(
      roots[0]!.projects.map((project) => project.name),
      ['tic-tac-toe'],
    );
    const [agent, judge] = roots[0]!.projects[0]!.models;
    assert.equal(agent!.folderName, 'agent-001');
    assert.deepEqual(agent!.facts, {
      name: 'agent-001',
      project: 'tic-tac-toe',
      entity: 'my-team',
      id: 'f5b1e7c2-0000-4000-8000-000000000001',
      base_model: 'Qwen/Qwen2.5-7B-Instruct',
      run_name: 'agent-001',
      trainable: true,
    });
    assert.deepEqual(
      agent!.splits.map((split) => [split.name, split.stepCount, split.firstStep, split.latestStep]),
      [
        ['train', 4, 0, 10],
        ['val', 1, 0, 0],
      ],
    );
    assert.deepEqual(modelSteps(agent!), { steps: 5, latest: 10 });
    assert.equal(modelDescription(agent!, undefined), 'train 4, val 1 · latest 10 · Qwen/Qwen2.5-7B-Instruct');
    assert.equal(judge!.facts, undefined);
    assert.equal(judge!.note, undefined, 'a model without model.json is not a problem');
    assert.equal(platformName(judge!), 'judge');

    const shown = everythingShown(roots);
    assert.ok(!shown.includes(secret), 'the inference key never reaches a node');
    assert.ok(!shown.includes('secret-inference'), 'nor the inference address');
  });

  it('gives a malformed, a non-object and an oversized model.json a note in its own words, quoting nothing of the file', async () => {
    const models = join(workspace, '.art', 'p', 'models');
    touch(join(models, 'broken', 'model.json'), `{"inference_api_key": "${secret}", "name": `);
    touch(join(models, 'listed', 'model.json'), `["${secret}"]`);
    touch(join(models, 'huge', 'model.json'), modelJson({ padding: 'x'.repeat(200_000) }));
    const roots = await discoverRoots(rootCandidates([workspace], [], diskFiles), diskFiles);
    const notes = Object.fromEntries(roots[0]!.projects[0]!.models.map((model) => [model.folderName, model.note]));
    assert.match(notes.broken!, /model\.json is not valid JSON/);
    assert.match(notes.listed!, /does not hold a JSON object/);
    assert.match(notes.huge!, /larger than 64 KB/);
    assert.ok(!everythingShown(roots).includes(secret));
  });

  it('reads only the named fields of model.json, each a short string', () => {
    const reading = readModelFile(modelJson({ name: 'n'.repeat(500), entity: 7, base_model: '  ' }), true, 65536);
    assert.ok(reading.ok);
    assert.deepEqual(Object.keys(reading.facts).sort(), ['project', 'run_name', 'trainable']);
  });

  it('takes a configured project folder as a project, and lists a folder reached twice once', async () => {
    const project = join(workspace, 'runs', 'proj');
    touch(join(project, 'models', 'm', 'trajectories', 'train', '0000.parquet'), 'x');
    symlinkSync(join(workspace, 'runs'), join(workspace, '.art'));
    const roots = await discoverRoots(rootCandidates([workspace], [project, join(workspace, 'runs')], diskFiles), diskFiles);
    assert.equal(roots.length, 1, 'the project under .art, then the same project and its folder again through the settings');
    assert.equal(roots[0]!.projects[0]!.models[0]!.folderName, 'm');
    const direct = await discoverRoots([{ path: project, origin: 'setting' }], diskFiles);
    assert.equal(direct[0]!.projectFolder, true);
    assert.equal(direct[0]!.projects[0]!.name, 'proj');
  });

  it('lists a split’s steps in step order with their sizes, the latest when there are more, and only `<number>.parquet` files', async () => {
    const split = join(workspace, 'split');
    for (const name of ['0010.parquet', '0002.parquet', '12.parquet', 'x.parquet', '0003.jsonl']) touch(join(split, name), 'abc');
    const listing = await listSteps(split, diskFiles, 10, true);
    assert.deepEqual(
      listing.steps.map((step) => [step.step, step.bytes]),
      [
        [2, 3],
        [10, 3],
        [12, 3],
      ],
    );
    assert.equal(listing.more, false);
    const cut = await listSteps(split, diskFiles, 2, false);
    assert.deepEqual(
      cut.steps.map((step) => step.step),
      [10, 12],
      'the latest steps',
    );
    assert.equal(cut.more, true);
    assert.equal(stepOfFileName('0001.PARQUET'), 1);
    assert.equal(stepOfFileName('-1.parquet'), undefined);
  });
});

describe('local runs: the folders of rlStudio.localRuns.folders', () => {
  const home = '/home/me';
  const workspace = '/work/repo';

  it('takes the user’s folders anywhere, a ~ as their home and a relative path from the first workspace folder', () => {
    const { folders, ignored } = configuredFolders({ globalValue: ['~/runs', '/data/art', 'local/.art'] }, [workspace], home);
    assert.deepEqual(folders, [
      { path: '/home/me/runs', from: 'user' },
      { path: '/data/art', from: 'user' },
      { path: '/work/repo/local/.art', from: 'user' },
    ]);
    assert.deepEqual(ignored, []);
  });

  it('takes a workspace’s folders only inside the workspace, and says why the others are left out', () => {
    const { folders, ignored } = configuredFolders({ workspaceValue: ['experiments/.art', '/work/repo/other', '/etc', '../outside', '~/runs', 3] }, [workspace], home);
    assert.deepEqual(
      folders.map((folder) => folder.path),
      ['/work/repo/experiments/.art', '/work/repo/other'],
    );
    assert.deepEqual(
      ignored.map((entry) => entry.value),
      ['3', '/etc', '../outside', '~/runs'],
    );
    assert.match(ignored.find((entry) => entry.value === '/etc')!.reason, /outside the workspace/);
  });

  it('ignores a value that is not a list, and bounds the list', () => {
    assert.deepEqual(configuredFolders({ globalValue: '/data' }, [workspace], home).folders, []);
    const many = Array.from({ length: 100 }, (_, index) => `/data/${index}`);
    assert.equal(configuredFolders({ globalValue: many }, [workspace], home).folders.length, 16);
  });

  it('tells a folder inside another from one beside it', () => {
    assert.ok(isInside('/work/repo/a', '/work/repo'));
    assert.ok(isInside('/work/repo', '/work/repo'));
    assert.ok(!isInside('/work/repository', '/work/repo'));
    assert.ok(!isInside('/work', '/work/repo'));
    assert.ok(isInside('/work/repo/..hidden', '/work/repo'));
  });
});
