import * as vscode from 'vscode';
import type { CreateModelRequest, CreateSftJobRequest, TrainingModel } from '../../../api/types';
import { checkpointModelId } from '../../../core/checkpointIds';
import { dataUrl, optionalBoolean, optionalNumber, optionalText, requiredId, requiredText, stepList, ToolInputError, ToolRefusal, workspacePath } from '../../../agent/toolInput';
import { oneLine } from '../../../core/format';
import { checkApiAddress, shownOrigin } from '../../trust/addresses';
import type { Services } from '../../platform/services';
import type { AgentTool, Confirmation } from './agentTool';
import { checkedTrajectories } from './fileTools';
import { optionalField } from './platformTools';
import { workspaceFile } from './workspaceFiles';

const namePattern = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** A name from the server, the model or the workspace, quoted in a confirmation's plain text, on one line. */
export function quoted(text: string): string {
  return `“${oneLine(text, 200)}”`;
}

export function modelLabel(model: TrainingModel): string {
  return String(model.name || model.id);
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
    const known = services.remembered.models.list().map((candidate) => `${candidate.id} (${modelLabel(candidate)})`);
    throw new ToolRefusal(`No training model with id ${modelId} is in RL Studio. ${known.length ? `Known models: ${known.slice(0, 20).join(', ')}.` : 'None is known yet: create one first.'}`);
  }
  return model;
}

function nameField(input: Record<string, unknown>, field: string, required: boolean): string | undefined {
  const value = required ? requiredText(input, field, 128) : optionalText(input, field, 128);
  if (value !== undefined && !namePattern.test(value)) throw new ToolInputError(`"${field}" may hold letters, digits, ".", "_" and "-", starting with a letter or digit.`);
  return value;
}

export function createModelTool(services: Services): AgentTool<CreateModelRequest> {
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
      title: 'Create a training model?',
      message: `Create the training model ${quoted(request.name)} in project ${quoted(`${request.entity ? `${request.entity}/` : ''}${request.project}`)}, from base model ${quoted(request.base_model)}, at ${trainingOrigin(services)}.${request.return_existing ? ' If the name is taken, the existing model is used.' : ''}`,
    }),
    progress: (request) => `Creating model ${request.name}`,
    run: async (request, signal) => {
      const client = await services.client();
      const model = await client.training.createModel(request, { signal });
      await services.remembered.models.add(model);
      services.log.info(`created training model ${model.entity}/${model.project}/${model.name} (${model.id}) for a chat tool`);
      return `Created training model ${model.name}: id ${model.id}, project ${model.entity}/${model.project}, base ${model.base_model}. It is listed in the Models view.`;
    },
  };
}

interface TrainingInput {
  modelId: string;
  path: string;
  learningRate?: number;
}

export function startTrainingTool(services: Services): AgentTool<TrainingInput> {
  const prepare = async (input: TrainingInput) => {
    const model = knownModel(services, input.modelId);
    const file = await workspaceFile(input.path);
    const parsed = await checkedTrajectories(file);
    if (!parsed.ok) {
      const first = parsed.problems.find((problem) => problem.severity === 'error');
      throw new ToolRefusal(
        `${file.label} has problems, so no job was started. Line ${(first?.line ?? 0) + 1}: ${first?.message ?? 'see the validate tool'}. Validate it with the validate-trajectories tool.`,
      );
    }
    if (parsed.groups.length === 0) throw new ToolRefusal(`${file.label} holds no trajectory group, so no job was started.`);
    return { model, file, groups: parsed.groups };
  };
  return {
    name: 'rlstudio_start_training',
    needsPlatform: true,
    read: (input) => ({ modelId: requiredId(input, 'modelId'), path: workspacePath(input, 'path'), ...optionalField('learningRate', optionalNumber(input, 'learningRate', { min: 1e-9, max: 1 })) }),
    confirm: async (input): Promise<Confirmation> => {
      const { model, file, groups } = await prepare(input);
      const trajectories = groups.reduce((sum, group) => sum + group.trajectories.length, 0);
      return {
        title: 'Start an RL training job?',
        message: `Train ${quoted(modelLabel(model))} (${model.id}) on ${quoted(file.label)}: ${groups.length} trajectory groups, ${trajectories} trajectories${input.learningRate !== undefined ? `, learning rate ${input.learningRate}` : ''}. The groups are sent to ${trainingOrigin(services)} and the training uses the platform's GPUs.`,
      };
    },
    progress: (input) => `Starting a training job from ${input.path}`,
    run: async (input, signal) => {
      // Read again: the file may have changed since the confirmation; what is sent is what is checked now.
      const { model, file, groups } = await prepare(input);
      const client = await services.client();
      const created = await client.training.createTrainingJob(
        { model_id: model.id, trajectory_groups: groups, ...(input.learningRate !== undefined ? { experimental_config: { learning_rate: input.learningRate } } : {}) },
        { signal },
      );
      await services.remembered.jobs.add({ id: created.id, modelId: model.id, kind: 'rl', addedAt: new Date().toISOString(), label: `${file.label} → ${modelLabel(model)}` });
      services.log.info(`created training job ${created.id} on model ${model.id} from ${file.uri.fsPath} (${groups.length} groups) for a chat tool`);
      return `Started RL training job ${created.id} on model ${modelLabel(model)} (${model.id}) with ${groups.length} trajectory groups from ${file.label}. It is followed in the Training Jobs view; ask for its status with job id ${created.id}.`;
    },
  };
}

export function startSftTool(services: Services): AgentTool<CreateSftJobRequest> {
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
      const settings = request.config ? ` (batch size ${String(request.config.batch_size ?? 'auto')}, learning rate ${String(request.config.learning_rate ?? 'default')})` : '';
      return {
        title: 'Start a supervised fine-tuning job?',
        message: `Fine-tune ${quoted(modelLabel(model))} (${model.id}) on the data at ${quoted(request.training_data_url)}${settings}. The request goes to ${trainingOrigin(services)}, which reads the data from that URL and trains on the platform's GPUs.`,
      };
    },
    progress: (request) => `Starting a fine-tuning job on ${request.model_id}`,
    run: async (request, signal) => {
      const model = knownModel(services, request.model_id);
      const client = await services.client();
      const created = await client.training.createSftJob(request, { signal });
      await services.remembered.jobs.add({ id: created.id, modelId: model.id, kind: 'sft', addedAt: new Date().toISOString(), label: `SFT → ${modelLabel(model)}` });
      services.log.info(`created SFT job ${created.id} on model ${model.id} for a chat tool`);
      return `Started supervised fine-tuning job ${created.id} on model ${modelLabel(model)} (${model.id}). It is followed in the Training Jobs view.`;
    },
  };
}

interface DeleteInput {
  modelId: string;
  steps: number[];
}

export function deleteCheckpointsTool(services: Services): AgentTool<DeleteInput> {
  /** The steps that exist, and the latest one: training goes on from it, so it is never deleted here. */
  const prepare = async (input: DeleteInput, signal: AbortSignal) => {
    const model = knownModel(services, input.modelId);
    const client = await services.client();
    const latest = (await client.training.listCheckpoints(model.id, { order: 'desc', limit: 1 }, { signal })).data[0]?.step;
    if (latest !== undefined && input.steps.includes(latest))
      throw new ToolRefusal(`Step ${latest} is the latest checkpoint of ${modelLabel(model)}: training goes on from it, so RL Studio does not delete it from a chat. Nothing was deleted.`);
    return { model, latest };
  };
  return {
    name: 'rlstudio_delete_checkpoints',
    needsPlatform: true,
    read: (input) => ({ modelId: requiredId(input, 'modelId'), steps: stepList(input, 'steps') }),
    confirm: async (input, signal) => {
      const { model } = await prepare(input, signal);
      return {
        title: `Delete ${input.steps.length} checkpoint${input.steps.length === 1 ? '' : 's'}?`,
        message: `Delete checkpoint${input.steps.length === 1 ? '' : 's'} ${quoted(describeSteps(input.steps))} of ${quoted(modelLabel(model))} (${model.id}) at ${trainingOrigin(services)}. Their weights are gone for good: this cannot be undone.`,
      };
    },
    progress: (input) => `Deleting ${input.steps.length} checkpoints of ${input.modelId}`,
    run: async (input, signal) => {
      const { model } = await prepare(input, signal);
      const client = await services.client();
      const result = await client.training.deleteCheckpoints(model.id, input.steps, { signal });
      services.log.info(`deleted ${result.deleted_count} checkpoints of ${model.id} (steps ${describeSteps(input.steps)}) for a chat tool`);
      void vscode.commands.executeCommand('rlStudio.refreshModels');
      const missing = Array.isArray(result.not_found_steps) && result.not_found_steps.length > 0 ? ` Not found: steps ${describeSteps(result.not_found_steps)}.` : '';
      return `Deleted ${result.deleted_count} checkpoint${result.deleted_count === 1 ? '' : 's'} of ${modelLabel(model)} (${model.id}).${missing}`;
    },
  };
}

/** "10, 12 and 14", or the first 20 and a count. */
export function describeSteps(steps: readonly number[]): string {
  const shown = steps.slice(0, 20).map(String);
  const rest = steps.length - shown.length;
  if (rest > 0) return `${shown.join(', ')} and ${rest} more`;
  return shown.length > 1 ? `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}` : (shown[0] ?? '');
}

/** The checkpoint's model id as chat requests name it. */
export function checkpointId(model: TrainingModel, step: number): string {
  const id = checkpointModelId(model, step);
  if (!id) throw new ToolRefusal(`The checkpoints of ${modelLabel(model)} cannot be named: its entity or project is unknown.`);
  return id;
}
