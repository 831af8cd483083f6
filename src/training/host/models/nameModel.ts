import * as vscode from 'vscode';
import { checkpointModelId } from '../../../platform/kit/checkpointIds';
import type { ModelCoordinates } from '../../../platform/kit/modelReference';
import { describeReference, readModelReference, readProject } from '../../../platform/kit/modelReference';
import type { Services } from '../../../platform/host/services';
import type { RememberedModel } from '../../../platform/host/rememberedItems';
import type { Dialogs } from '../../../platform/host/dialogs';
import { modelLabel } from './modelNodes';

export const validationInfo = (message: string): vscode.InputBoxValidationMessage => ({ message, severity: vscode.InputBoxValidationSeverity.Info });
export const validationWarning = (message: string): vscode.InputBoxValidationMessage => ({ message, severity: vscode.InputBoxValidationSeverity.Warning });
export const validationError = (message: string): vscode.InputBoxValidationMessage => ({ message, severity: vscode.InputBoxValidationSeverity.Error });

/**
 * Asks for a model's entity/project/name (a name alone joins rlStudio.project). The training API
 * never tells a model's name, so what the person types is recorded as is: it is what the checkpoint
 * model ids are built from. Undefined when cancelled, or left empty where the name is optional.
 */
export async function askModelName(services: Services, dialogs: Dialogs, options: { title: string; required: boolean; current?: ModelCoordinates }): Promise<ModelCoordinates | undefined> {
  const project = services.settings.current.project;
  const team = readProject(project);
  const current = options.current && checkpointModelId(options.current) ? `${options.current.entity}/${options.current.project}/${options.current.name}` : '';
  const text = await dialogs.input({
    title: options.title,
    prompt:
      `The model's entity/project/name as it was created${team ? `, or its name alone in ${project} (rlStudio.project)` : ''}. ` +
      'Its checkpoints are served to the chat as wandb-artifact:///entity/project/name:stepN. ' +
      `RL Studio cannot check the name: the training API does not tell a model's name.${options.required ? '' : ' Leave empty to add the model without it (no chat with its checkpoints until it is named).'}`,
    placeHolder: team ? `e.g. ${project}/agent-001 or agent-001` : 'e.g. acme/agents/agent-001',
    value: current,
    validateInput: (value) => {
      if (value.trim() === '') return undefined;
      const reading = readModelReference(value, { project, allowId: false });
      if (!reading.ok) return validationError(reading.problem);
      if (reading.reference.form === 'id') return validationError("Enter the model's name");
      return validationInfo(`Understood: ${describeReference(reading.reference)}. Its checkpoints will be chatted with as ${checkpointModelId(reading.reference.coordinates)}:stepN.`);
    },
  });
  if (!text?.trim()) return undefined;
  const reading = readModelReference(text, { project, allowId: false });
  if (!reading.ok) throw new Error(`The model's name cannot be used: ${reading.problem}.`);
  if (reading.reference.form === 'id') return undefined;
  const { entity, project: modelProject, name } = reading.reference.coordinates;
  return { entity, project: modelProject, name };
}

/** Asks for the name of a model already in the list, and records it; the named model, or undefined when cancelled. */
export async function nameModel(services: Services, dialogs: Dialogs, model: RememberedModel): Promise<RememberedModel | undefined> {
  const latest = services.remembered.models.get(model.id) ?? model;
  const coordinates = await askModelName(services, dialogs, { title: `Model name of ${modelLabel(latest)}`, required: true, current: latest });
  if (!coordinates) return undefined;
  const named: RememberedModel = { ...latest, ...coordinates };
  await services.remembered.models.add(named);
  services.log.info(`named training model ${model.id}: ${coordinates.entity}/${coordinates.project}/${coordinates.name}`);
  return named;
}

/**
 * A checkpoint (or the latest one, without a step) of a model added by id alone has no model id to
 * chat with. Says why, offers to name the model, and then opens the chat on that checkpoint.
 */
export async function nameThenChat(services: Services, dialogs: Dialogs, model: RememberedModel, step: number | undefined): Promise<void> {
  const label = modelLabel(model);
  const what = step === undefined ? `The latest checkpoint of model ${label}` : `Step ${step} of model ${label}`;
  const action = 'Name Model…';
  const answer = await dialogs.choose(
    `${what} cannot be opened in chat yet: RL Studio does not know the model's entity/project/name.`,
    {
      modal: true,
      detail:
        `The platform serves a checkpoint under its model's name, as wandb-artifact:///entity/project/name${step === undefined ? '' : `:step${step}`}. ` +
        "This model was added by its id alone, and the training API does not tell a model's name. " +
        `Name the model as it was created, and the chat opens with ${step === undefined ? 'its latest checkpoint' : `step ${step}`}.`,
    },
    action,
  );
  if (answer !== action) return;
  const named = await nameModel(services, dialogs, model);
  const modelId = named ? checkpointModelId(named, step) : undefined;
  if (modelId) await openInChat(modelId);
}

/** Opens the chat panel on a model id, or the last conversation without one (activation always registers the command). */
export async function openInChat(modelId: string | undefined): Promise<void> {
  await vscode.commands.executeCommand('rlStudio.openChat', modelId ? { modelId } : undefined);
}
