import * as vscode from 'vscode';
import type { CreateModelRequest, CreateSftJobRequest, TrainingModel } from '../../../platform/client/types';
import { checkpointModelId } from '../../../platform/kit/checkpointIds';
import { isModelNamePart } from '../../../platform/kit/modelReference';
import { quoted, stepRanges } from '../../../platform/kit/confirmationText';
import { escapedLine, foreignName, foreignToken } from '../../../platform/agent/foreignText';
import { modelNamed, toolConfirmationOf, type NamedModel } from '../../../platform/agent/toolConfirmations';
import { createModelConfirmation, deleteCheckpointsConfirmation, sftConfirmation, trainingConfirmation } from '../../model/trainingConfirmations';
import { dataUrl, optionalBoolean, optionalNumber, optionalText, requiredId, requiredText, stepList, ToolInputError, ToolRefusal, workspacePath } from '../../../platform/agent/toolInput';
import { checkApiAddress, shownOrigin } from '../../../platform/trust/addresses';
import type { Services } from '../../../platform/host/services';
import type { AgentTool } from '../../../platform/agent/agentTool';
import { readTrajectories } from './trajectoryTools';
import { optionalField } from './platformTools';
import { workspaceFile } from '../../../platform/agent/workspaceFiles';

export function modelLabel(model: TrainingModel): string {
  return String(model.name || model.id);
}

/** The model as a confirmation or a result names it: by name and by id. */
export function namedModel(model: TrainingModel): NamedModel {
  return { id: String(model.id), name: String(model.name ?? '') };
}

/** The training API's origin as a person reads it: every confirmation names where the request goes. */
export function trainingOrigin(services: Services): string {
  const check = checkApiAddress(services.settings.current.trainingApiUrl);
  return check.ok && check.origin ? shownOrigin(check.origin) : 'the training API';
}

/** A training model RL Studio knows (created or added); an agent works on those only, as the views do. */
export function knownModel(services: Services, modelId: string): TrainingModel {
  const model = services.remembered.models.get(modelId);
  if (!model) {
    const known = services.remembered.models.list().map((candidate) => `${foreignToken(String(candidate.id))} (${foreignName(modelLabel(candidate), 80)})`);
    throw new ToolRefusal(
      `No training model with id ${foreignToken(modelId)} is in RL Studio. ${known.length ? `Known models: ${known.slice(0, 20).join(', ')}.` : 'None is known yet: create one first.'}`,
    );
  }
  return model;
}

function nameField(input: Record<string, unknown>, field: string, required: boolean): string | undefined {
  const value = required ? requiredText(input, field, 128) : optionalText(input, field, 128);
  if (value !== undefined && !isModelNamePart(value)) throw new ToolInputError(`"${field}" may hold letters, digits, ".", "_" and "-", starting with a letter or digit.`);
  return value;
}

export function createModelTool(services: Services): AgentTool<CreateModelRequest, { request: CreateModelRequest }> {
  return {
    name: 'rlstudio_create_model',
    needsPlatform: true,
    read: (input) => {
      const [team, teamProject] = services.settings.current.project.split('/');
      const project = nameField(input, 'project', false) ?? teamProject;
      if (!project) throw new ToolInputError('"project" is required: no default project is set in RL Studio\'s settings.');
      const entity = nameField(input, 'entity', false) ?? (team || undefined);
      const request: CreateModelRequest = { name: nameField(input, 'name', true)!, project, base_model: requiredText(input, 'baseModel', 300) };
      if (entity) request.entity = entity;
      if (optionalBoolean(input, 'returnExisting')) request.return_existing = true;
      return request;
    },
    confirm: async (request) => ({
      confirmation: toolConfirmationOf(createModelConfirmation(request, services.settings.current.trainingApiUrl)),
      plan: { request: structuredClone(request) },
    }),
    progress: (request) => `Creating model ${request.name}`,
    run: async (_request, signal, { request }) => {
      const client = await services.client();
      const model = await client.training.createModel(request, { signal });
      await services.remembered.models.add(model);
      services.log.info(`created training model ${model.entity}/${model.project}/${model.name} (${model.id}) for a chat tool`);
      return `Created training model ${foreignName(String(model.name))}: id ${foreignToken(String(model.id))}, project ${foreignName(`${model.entity}/${model.project}`)}, base ${foreignName(String(model.base_model))}. It is listed in the Models view.`;
    },
  };
}

interface TrainingInput {
  modelId: string;
  path: string;
  learningRate?: number;
}

/** What a training confirmation counted: the file by its digest, so the job sends those bytes or nothing. */
interface TrainingPlan {
  modelId: string;
  fsPath: string;
  label: string;
  digest: string;
  groups: number;
}

export function startTrainingTool(services: Services): AgentTool<TrainingInput, TrainingPlan> {
  /** The model, the file and the groups checked from one read of its bytes. */
  const prepare = async (input: TrainingInput) => {
    const model = knownModel(services, input.modelId);
    const file = await workspaceFile(input.path);
    const { parsed, digest } = await readTrajectories(file);
    if (!parsed.ok) {
      const first = parsed.problems.find((problem) => problem.severity === 'error');
      throw new ToolRefusal(
        `${quoted(file.label)} has problems, so no job was started. Line ${(first?.line ?? 0) + 1}: ${escapedLine(first?.message ?? 'see the validate tool')}. Validate it with the validate-trajectories tool.`,
      );
    }
    if (parsed.groups.length === 0) throw new ToolRefusal(`${quoted(file.label)} holds no trajectory group, so no job was started.`);
    return { model, file, groups: parsed.groups, digest };
  };
  return {
    name: 'rlstudio_start_training',
    needsPlatform: true,
    read: (input) => ({ modelId: requiredId(input, 'modelId'), path: workspacePath(input, 'path'), ...optionalField('learningRate', optionalNumber(input, 'learningRate', { min: 1e-9, max: 1 })) }),
    confirm: async (input) => {
      const { model, file, groups, digest } = await prepare(input);
      const trajectories = groups.reduce((sum, group) => sum + group.trajectories.length, 0);
      return {
        confirmation: toolConfirmationOf(
          trainingConfirmation({
            source: { name: file.label, path: file.uri.fsPath },
            groups: groups.length,
            trajectories,
            model,
            config: input.learningRate !== undefined ? { learning_rate: input.learningRate } : undefined,
            trainingApiUrl: services.settings.current.trainingApiUrl,
          }),
        ),
        plan: { modelId: model.id, fsPath: file.uri.fsPath, label: file.label, digest, groups: groups.length },
      };
    },
    progress: (input) => `Starting a training job from ${input.path}`,
    run: async (input, signal, plan) => {
      // Read again, and sent only when the bytes are those the confirmation counted.
      const model = knownModel(services, plan.modelId);
      const file = await workspaceFile(input.path);
      const changed = () =>
        new ToolRefusal(
          `The file changed after you confirmed; nothing was sent. ${quoted(plan.label)} no longer holds the ${plan.groups} trajectory groups the confirmation counted: call the tool again to confirm what it holds now.`,
        );
      if (file.uri.fsPath !== plan.fsPath) throw changed();
      const { parsed, digest } = await readTrajectories(file);
      if (digest !== plan.digest || !parsed.ok || parsed.groups.length !== plan.groups) throw changed();
      const groups = parsed.groups;
      const client = await services.client();
      const created = await client.training.createTrainingJob(
        { model_id: model.id, trajectory_groups: groups, ...(input.learningRate !== undefined ? { experimental_config: { learning_rate: input.learningRate } } : {}) },
        { signal },
      );
      await services.remembered.jobs.add({ id: created.id, modelId: model.id, kind: 'rl', addedAt: new Date().toISOString(), label: `${file.label} → ${modelLabel(model)}` });
      services.log.info(`created training job ${created.id} on model ${model.id} from ${file.uri.fsPath} (${groups.length} groups, sha256 ${digest}) for a chat tool`);
      return `Started RL training job ${foreignToken(String(created.id))} on model ${modelNamed(namedModel(model))} with ${groups.length} trajectory groups from ${quoted(file.label)}. It is followed in the Training Jobs view; ask for its status with job id ${foreignToken(String(created.id))}.`;
    },
  };
}

export function startSftTool(services: Services): AgentTool<CreateSftJobRequest, { request: CreateSftJobRequest }> {
  return {
    name: 'rlstudio_start_sft',
    needsPlatform: true,
    read: (input) => {
      const request: CreateSftJobRequest = { model_id: requiredId(input, 'modelId'), training_data_url: dataUrl(input, 'trainingDataUrl') };
      const batchSize = optionalNumber(input, 'batchSize', { min: 1, max: 100_000, integer: true });
      const learningRate = optionalNumber(input, 'learningRate', { min: 1e-9, max: 1 });
      if (batchSize !== undefined || learningRate !== undefined) request.config = { ...optionalField('batch_size', batchSize), ...optionalField('learning_rate', learningRate) };
      return request;
    },
    confirm: async (request) => {
      const model = knownModel(services, request.model_id);
      return {
        confirmation: toolConfirmationOf(sftConfirmation({ model, dataUrl: request.training_data_url, config: request.config, trainingApiUrl: services.settings.current.trainingApiUrl })),
        plan: { request: structuredClone(request) },
      };
    },
    progress: (request) => `Starting a fine-tuning job on ${request.model_id}`,
    run: async (_input, signal, { request }) => {
      const model = knownModel(services, request.model_id);
      const client = await services.client();
      const created = await client.training.createSftJob(request, { signal });
      await services.remembered.jobs.add({ id: created.id, modelId: model.id, kind: 'sft', addedAt: new Date().toISOString(), label: `SFT → ${modelLabel(model)}` });
      services.log.info(`created SFT job ${created.id} on model ${model.id} for a chat tool`);
      return `Started supervised fine-tuning job ${foreignToken(String(created.id))} on model ${modelNamed(namedModel(model))}. It is followed in the Training Jobs view.`;
    },
  };
}

interface DeleteInput {
  modelId: string;
  steps: number[];
}

export function deleteCheckpointsTool(services: Services): AgentTool<DeleteInput, { modelId: string; steps: number[] }> {
  /** The model, after checking that the latest step is not among those to delete: training goes on from it. */
  const prepare = async (modelId: string, steps: readonly number[], signal: AbortSignal) => {
    const model = knownModel(services, modelId);
    const client = await services.client();
    const latest = (await client.training.listCheckpoints(model.id, { order: 'desc', limit: 1 }, { signal })).data[0]?.step;
    if (latest !== undefined && steps.includes(latest))
      throw new ToolRefusal(`Step ${latest} is the latest checkpoint of ${modelNamed(namedModel(model))}: training goes on from it, so RL Studio does not delete it from a chat. Nothing was deleted.`);
    return model;
  };
  return {
    name: 'rlstudio_delete_checkpoints',
    needsPlatform: true,
    read: (input) => ({ modelId: requiredId(input, 'modelId'), steps: stepList(input, 'steps') }),
    confirm: async (input, signal) => {
      const model = await prepare(input.modelId, input.steps, signal);
      return {
        confirmation: toolConfirmationOf(deleteCheckpointsConfirmation(model, input.steps, services.settings.current.trainingApiUrl)),
        plan: { modelId: model.id, steps: [...input.steps] },
      };
    },
    progress: (input) => `Deleting ${input.steps.length} checkpoints of ${input.modelId}`,
    run: async (_input, signal, plan) => {
      // The latest step is checked again: a checkpoint confirmed as not the latest may have become it.
      const model = await prepare(plan.modelId, plan.steps, signal);
      const client = await services.client();
      const result = await client.training.deleteCheckpoints(model.id, plan.steps, { signal });
      services.log.info(`deleted ${result.deleted_count} checkpoints of ${model.id} (steps ${stepRanges(plan.steps)}) for a chat tool`);
      void vscode.commands.executeCommand('rlStudio.refreshModels');
      const notFound = Array.isArray(result.not_found_steps) ? result.not_found_steps.filter((step): step is number => Number.isSafeInteger(step)) : [];
      const missing = notFound.length > 0 ? ` Not found: steps ${stepRanges(notFound)}.` : '';
      const deleted = Number.isSafeInteger(result.deleted_count) ? result.deleted_count : foreignToken(String(result.deleted_count));
      return `Deleted ${deleted} checkpoint${deleted === 1 ? '' : 's'} of ${modelNamed(namedModel(model))} (steps ${stepRanges(plan.steps)} asked).${missing}`;
    },
  };
}

/** The checkpoint's model id as chat requests name it. */
export function checkpointId(model: TrainingModel, step: number): string {
  const id = checkpointModelId(model, step);
  if (!id) throw new ToolRefusal(`The checkpoints of ${modelNamed(namedModel(model))} cannot be named: its entity or project is unknown.`);
  return id;
}
