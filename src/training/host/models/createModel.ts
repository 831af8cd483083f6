import * as vscode from 'vscode';
import { errorMessage } from '../../../platform/client/errorMessage';
import type { CreateModelRequest, TrainingModel } from '../../../platform/client/types';
import type { Services } from '../../../platform/host/services';
import { createModelConfirmation, type Confirmation } from '../../model/trainingConfirmations';
import { readyForTraining, withNotification } from '../flowGuards';
import type { Dialogs } from '../../../platform/host/dialogs';
import { isModelNamePart } from '../../../platform/kit/modelReference';

/** The rule a project or model name follows, as the input box states it. */
function validateName(value: string): string | undefined {
  return isModelNamePart(value.trim()) ? undefined : 'Letters, digits, ".", "_" and "-", starting with a letter or digit';
}

/** How a flow that creates a model for its own purpose words it. */
export interface CreateModelWording {
  /** Title of the base model question. */
  baseModelTitle?: string;
  /** What the progress notification says is happening. */
  progress?: string;
  /** The words of the confirmation, when the flow says better what it does than "Create the model". */
  confirmation?: (request: CreateModelRequest, trainingApiUrl: string) => Confirmation;
}

/**
 * Creates a training model. Every field can come from the caller (automation); the rest is asked:
 * the base model from the server's list when it has one, else typed. A confirmation names every
 * field and the training API's host before anything is created.
 */
export async function createModel(services: Services, dialogs: Dialogs, given: Partial<CreateModelRequest> = {}, wording: CreateModelWording = {}): Promise<TrainingModel | undefined> {
  if (!(await readyForTraining(services))) return undefined;
  const request = await completeRequest(services, dialogs, given, wording.baseModelTitle ?? 'Create Model (1/5): base model');
  if (!request) return undefined;
  const confirmation = (wording.confirmation ?? createModelConfirmation)(request, services.settings.current.trainingApiUrl);
  if (!(await dialogs.confirm(confirmation.message, confirmation.detail, confirmation.action))) return undefined;
  const client = await services.client();
  const model = await withNotification(wording.progress ?? `creating model ${request.name}…`, () => client.training.createModel(request));
  await services.remembered.models.add(model);
  services.log.info(`created training model ${model.entity}/${model.project}/${model.name} (${model.id})`);
  return model;
}

async function completeRequest(services: Services, dialogs: Dialogs, given: Partial<CreateModelRequest>, baseModelTitle: string): Promise<CreateModelRequest | undefined> {
  const [team, teamProject] = services.settings.current.project.split('/');
  const base_model = given.base_model ?? (await askBaseModel(services, dialogs, baseModelTitle));
  if (!base_model) return undefined;
  const project =
    given.project ??
    (
      await dialogs.input({
        title: 'Create Model (2/5): project',
        prompt: 'The project the model belongs to',
        value: teamProject ?? '',
        validateInput: validateName,
      })
    )?.trim();
  if (!project) return undefined;
  const name =
    given.name ??
    (
      await dialogs.input({
        title: 'Create Model (3/5): name',
        prompt: 'A name for the model, unique in the project',
        validateInput: validateName,
      })
    )?.trim();
  if (!name) return undefined;
  let entity = given.entity;
  if (entity === undefined && given.name === undefined) {
    const typed = await dialogs.input({
      title: 'Create Model (4/5): entity (optional)',
      prompt: 'The entity (user or team) that owns the model. Leave empty for your default entity.',
      value: team ?? '',
      validateInput: (value) => (value.trim() === '' || isModelNamePart(value.trim()) ? undefined : 'Letters, digits, ".", "_" and "-"'),
    });
    if (typed === undefined) return undefined;
    entity = typed.trim() || undefined;
  }
  let return_existing = given.return_existing;
  if (return_existing === undefined && given.name === undefined) {
    const reuse = { label: 'Use the existing model', detail: 'If a model with this name exists, add it instead of failing', value: true };
    const fail = { label: 'Fail if it exists', detail: 'Creating a model whose name is taken is an error', value: false };
    const picked = await dialogs.pick([reuse, fail], { title: 'Create Model (5/5): when the name is taken' });
    if (!picked) return undefined;
    return_existing = picked.value;
  }
  const request: CreateModelRequest = { project, name, base_model };
  if (entity) request.entity = entity;
  if (return_existing !== undefined) request.return_existing = return_existing;
  return request;
}

async function askBaseModel(services: Services, dialogs: Dialogs, title: string): Promise<string | undefined> {
  const client = await services.client();
  let offered: string[] | undefined;
  try {
    offered = await Promise.resolve(vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'Reading base models…' }, () => client.training.baseModels()));
  } catch (error) {
    // The list only helps; typing the name works without it.
    services.log.warn(`base models: ${errorMessage(error)}`);
  }
  if (offered && offered.length > 0) {
    const other = { label: '$(edit) Another base model…', value: undefined as string | undefined };
    const items = [...offered.map((id) => ({ label: id, value: id as string | undefined })), other];
    const picked = await dialogs.pick(items, { title, placeHolder: 'The model to start training from', matchOnDescription: true });
    if (!picked) return undefined;
    if (picked.value) return picked.value;
  }
  return (
    await dialogs.input({
      title,
      prompt: 'The base model to start from, for example OpenPipe/Qwen3-14B-Instruct',
      validateInput: (value) => (value.trim() === '' ? 'Enter a base model' : undefined),
    })
  )?.trim();
}
