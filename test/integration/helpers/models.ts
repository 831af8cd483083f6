/**
 * The Models view as the tests read it: the seeded trained model put in the list, and its nodes
 * found once the view shows them.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { EvalRunFile } from '../../../src/evals/model/evalModel';
import type { SeededIds } from '../../emulator/contract';
import type { ModelsNode } from '../../../src/training/host/models/modelNodes';
import type { ConnectedPlatform } from './platform';
import { waitUntil } from './waitUntil';

/** What the emulator seeded (a trained model, jobs, the catalogue); fails when it seeded nothing. */
export function seededIds(platform: ConnectedPlatform): SeededIds {
  const ids = platform.emulator.seeded;
  assert.ok(ids, 'the emulator was seeded');
  return ids;
}

/** `entity/project/name` of the seeded trained model. */
export function trainedModelName(ids: SeededIds): string {
  return `${ids.trainedModelEntity}/${ids.trainedModelProject}/${ids.trainedModelName}`;
}

/**
 * Puts the seeded trained model, with its name, in the Models view (a no-op when it is listed
 * already), for the cases that need a training model whatever ran before them.
 */
export async function trainedModelListed(platform: ConnectedPlatform): Promise<void> {
  const ids = seededIds(platform);
  await vscode.commands.executeCommand('rlStudio.addModel', ids.trainedModelId, trainedModelName(ids));
}

async function children(models: vscode.TreeDataProvider<ModelsNode>, parent?: ModelsNode): Promise<ModelsNode[]> {
  return (await models.getChildren(parent)) ?? [];
}

/** The node of a training model, once the view lists it. */
export async function trainingModelNode(models: vscode.TreeDataProvider<ModelsNode>, modelId: string): Promise<ModelsNode> {
  const node = await waitUntil(
    `training model ${modelId} in the Models view`,
    async () => {
      const training = (await children(models)).find((candidate) => candidate.kind === 'group' && candidate.group === 'training');
      return training ? (await children(models, training)).find((candidate) => candidate.kind === 'trainingModel' && candidate.model.id === modelId) : undefined;
    },
    (found) => found !== undefined,
  );
  return node!;
}

/** The node of one checkpoint of a training model, once the view lists it. */
export async function checkpointNode(models: vscode.TreeDataProvider<ModelsNode>, modelId: string, step: number): Promise<ModelsNode> {
  const node = await waitUntil(
    `step ${step} of ${modelId} in the Models view`,
    async () => {
      const model = await trainingModelNode(models, modelId);
      return (await children(models, model)).find((candidate) => candidate.kind === 'checkpoint' && candidate.checkpoint.step === step);
    },
    (found) => found !== undefined,
  );
  return node!;
}

/**
 * Runs "Evaluate Checkpoints…" on these steps of the seeded training model as a person answers its
 * dialogs: the eval set at `setPath`, exact match, the base model beside, deterministic sampling.
 */
export async function evaluateSteps(platform: ConnectedPlatform, steps: number[], setPath: string): Promise<EvalRunFile> {
  const ids = seededIds(platform);
  await trainedModelListed(platform);
  const nodes = await Promise.all(steps.map((step) => checkpointNode(platform.api.views.models, ids.trainedModelId, step)));
  platform.api.dialogs.answerNext(setPath, 'Exact match', 'Base model (step 0)', 'Deterministic');
  const run = (await vscode.commands.executeCommand('rlStudio.evaluateCheckpoints', nodes[0], nodes)) as EvalRunFile | undefined;
  assert.ok(run, 'the evaluation ran');
  return run;
}
