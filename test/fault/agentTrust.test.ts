/**
 * A costly tool's confirmation is its action. A trajectory file that changes between the
 * confirmation and the run (a watcher, a script, a colleague's pull) sends nothing, counted at the
 * platform; what is sent is exactly what was counted; a run with no confirmation behind it sends
 * nothing; a deletion sends exactly the steps its confirmation named, every one of them.
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TrainingModel } from '../../src/platform/client/types';
import { startEmulator, type Emulator } from '../emulator';
import { trajectoryGroups } from '../support/builders';
import { confirmationOf, invoked, toolModules, toolServices, useWorkspaceFolder } from './support/agentToolHost';

const jobPosts = (emulator: Emulator) => emulator.requests.filter((request) => request.method === 'POST' && request.path.endsWith('/preview/training-jobs'));

describe('agent trust: a tool sends exactly what its confirmation named', function () {
  this.timeout(60_000);
  let emulator: Emulator;
  let folder: string;
  let model: TrainingModel;

  before(async () => {
    emulator = await startEmulator({ secondsPerStep: 0.05 });
    folder = mkdtempSync(join(tmpdir(), 'rl-studio-agent-trust-'));
    useWorkspaceFolder(folder);
    const seeded = emulator.seeded!;
    model = { id: seeded.trainedModelId, name: seeded.trainedModelName, entity: seeded.trainedModelEntity, project: seeded.trainedModelProject, base_model: seeded.baseModels[0]! };
  });

  after(async () => {
    useWorkspaceFolder(undefined);
    rmSync(folder, { recursive: true, force: true });
    await emulator?.close();
  });

  const writeGroups = (name: string, count: number) =>
    writeFileSync(
      join(folder, name),
      `${trajectoryGroups(count, (index) => ({ question: `puzzle ${index}`, reward: index % 2 }))
        .map((group) => JSON.stringify(group))
        .join('\n')}\n`,
    );

  it('start_training: the file grows from 1 group to 40 after the confirmation; nothing is sent, and the refusal says why', async () => {
    const { languageModelTool, startTrainingTool } = toolModules();
    const services = toolServices(emulator, [model]);
    const tool = languageModelTool(services, startTrainingTool(services));
    writeGroups('batch.jsonl', 1);
    const input = { modelId: model.id, path: 'batch.jsonl' };
    const confirmation = await confirmationOf(tool, input);
    assert.match(confirmation, /^1 trajectory group, \d+ trajector/m);

    writeGroups('batch.jsonl', 40);
    const before = jobPosts(emulator).length;
    await assert.rejects(invoked(tool, input), /the file changed after you confirmed; nothing was sent/i);
    assert.equal(jobPosts(emulator).length - before, 0, 'no job was created');
  });

  it('start_training: confirmed as it is now, the job carries exactly the 40 groups the confirmation counted', async () => {
    const { languageModelTool, startTrainingTool } = toolModules();
    const services = toolServices(emulator, [model]);
    const tool = languageModelTool(services, startTrainingTool(services));
    writeGroups('batch.jsonl', 40);
    const input = { modelId: model.id, path: 'batch.jsonl' };
    assert.match(await confirmationOf(tool, input), /^40 trajectory groups, /m);
    const before = jobPosts(emulator).length;
    assert.match(await invoked(tool, input), /Started RL training job \S+ .* with 40 trajectory groups/);
    const posts = jobPosts(emulator).slice(before);
    assert.equal(posts.length, 1);
    assert.equal((JSON.parse(posts[0]!.body) as { trajectory_groups: unknown[] }).trajectory_groups.length, 40);
  });

  it('start_training: a run with no confirmation behind it (never shown, or already used) sends nothing', async () => {
    const { languageModelTool, startTrainingTool } = toolModules();
    const services = toolServices(emulator, [model]);
    const tool = languageModelTool(services, startTrainingTool(services));
    writeGroups('batch.jsonl', 3);
    const input = { modelId: model.id, path: 'batch.jsonl' };
    const before = jobPosts(emulator).length;
    await assert.rejects(invoked(tool, input), /holds no confirmation for this call.*nothing was done/i);
    await confirmationOf(tool, input);
    await invoked(tool, input);
    await assert.rejects(invoked(tool, input), /holds no confirmation/i, 'a confirmation runs once');
    assert.equal(jobPosts(emulator).length - before, 1);
  });

  it('delete_checkpoints: 30 steps are named every one, with the model by name and id, and exactly those are deleted', async () => {
    const { languageModelTool, deleteCheckpointsTool } = toolModules();
    const pruneId = await emulator.createModelWithCheckpoints('prune\n- step 24 · reward 0.99', 60);
    const prune: TrainingModel = { id: pruneId, name: 'prune\n- step 24 · reward 0.99', entity: model.entity, project: model.project, base_model: model.base_model };
    const services = toolServices(emulator, [prune]);
    const tool = languageModelTool(services, deleteCheckpointsTool(services));
    const steps = [...Array.from({ length: 18 }, (_, index) => index * 2), ...Array.from({ length: 12 }, (_, index) => 40 + index)];
    const confirmation = await confirmationOf(tool, { modelId: pruneId, steps });
    assert.ok(confirmation.includes('Steps: 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32, 34, 40–51'), confirmation);
    assert.ok(confirmation.includes(`Model: "${model.entity}/${model.project}/prune\\n- step 24 · reward 0.99", id ${pruneId}`), confirmation);
    assert.match(confirmation, /Delete 30 checkpoints/);
    assert.ok(confirmation.includes(`Training API: ${new URL(emulator.trainingUrl).origin}`) || confirmation.includes(new URL(emulator.trainingUrl).host), confirmation);
    assert.match(confirmation, /cannot be undone/);
    for (const line of confirmation.split('\n')) assert.doesNotMatch(line, /^\s*- step/, 'a forged line');

    const deletions = () => emulator.requests.filter((request) => request.method === 'DELETE' && request.path.includes(pruneId));
    await invoked(tool, { modelId: pruneId, steps });
    assert.equal(deletions().length, 1);
    assert.deepEqual((JSON.parse(deletions()[0]!.body) as { steps: number[] }).steps, steps);
  });
});
