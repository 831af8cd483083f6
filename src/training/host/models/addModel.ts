import type * as vscode from 'vscode';
import { errorMessage } from '../../../platform/client/errorMessage';
import { checkpointModelId } from '../../../platform/kit/checkpointIds';
import type { ModelCoordinates } from '../../../platform/kit/modelReference';
import {
  describeReference,
  exampleModelId,
  isModelUuid,
  readModelReference,
  readProject,
  referenceExamples,
  sameCoordinates,
  type ModelReference,
  type NamedReference,
} from '../../../platform/kit/modelReference';
import type { Services } from '../../../platform/host/services';
import type { RememberedModel } from '../../../platform/host/rememberedItems';
import { checkedId, idProblem } from '../../../platform/trust/ids';
import { readyForTraining, withNotification } from '../flowGuards';
import type { Dialogs } from '../../../platform/host/dialogs';
import { createModel } from './createModel';
import { modelLabel } from './modelNodes';
import { askModelName, openInChat, validationError, validationInfo, validationWarning } from './nameModel';

/**
 * Adds a training model the platform already has. A caller (automation) gives its id and,
 * optionally, its name; a person types any of the forms core/modelReference reads. The training API
 * finds models only by id (there is no lookup by name, nor a GET of one model), so:
 * - an id is checked by listing one of its checkpoints, then the name is asked (optional);
 * - a name is kept to build checkpoint model ids, and the id comes from the person, or from the
 *   one call that answers a name: create with return_existing (which creates when the name is free).
 */
export async function addModel(services: Services, dialogs: Dialogs, givenId?: string, givenName?: string): Promise<RememberedModel | undefined> {
  if (!(await readyForTraining(services))) return undefined;
  if (givenId !== undefined) return addGiven(services, givenId, givenName);
  const project = services.settings.current.project;
  const typed = await dialogs.input({
    // The title keeps the command's name, which the UI tests look for.
    title: 'Add Model by ID or Name',
    prompt: addPrompt(project),
    placeHolder: referenceExamples(project),
    validateInput: (value) => {
      if (value.trim() === '') return undefined;
      const reading = readModelReference(value, { project, allowId: true });
      return reading.ok ? validationInfo(understood(reading.reference)) : validationError(reading.problem);
    },
  });
  if (!typed?.trim()) return undefined;
  const reading = readModelReference(typed, { project, allowId: true });
  if (!reading.ok) throw new Error(`This cannot be read as a model: ${reading.problem}.`);
  if (reading.reference.form === 'id') return addById(services, dialogs, reading.reference.id);
  return addByName(services, dialogs, reading.reference);
}

function addPrompt(project: string): string {
  const nameAlone = readProject(project) ? `or a name alone, in ${project} (rlStudio.project)` : 'or a name alone once rlStudio.project (team/project) is set';
  return (
    `A model id (a UUID), a checkpoint model id (wandb-artifact:///entity/project/name, :stepN optional), entity/project/name, ${nameAlone}. ` +
    'The training API finds models only by id: after a name, RL Studio asks how to get the id.'
  );
}

function understood(reference: ModelReference): string {
  if (reference.form === 'id') return "Understood: a model id. Next, RL Studio checks it on the training API, then asks for the model's name (optional; needed to chat).";
  return `Understood: ${describeReference(reference)}. The training API finds models only by id: next, choose how to get it.`;
}

/** The command's arguments: no question asked, as before names could be typed. */
async function addGiven(services: Services, givenId: string, givenName: string | undefined): Promise<RememberedModel> {
  const id = checkedId(givenId, 'model');
  let coordinates: ModelCoordinates | undefined;
  if (givenName !== undefined && givenName.trim() !== '') {
    const reading = readModelReference(givenName, { project: services.settings.current.project, allowId: false });
    if (!reading.ok || reading.reference.form === 'id') throw new Error(`"${givenName}" cannot be used as the model's name: ${reading.ok ? 'it is an id' : reading.problem}.`);
    coordinates = reading.reference.coordinates;
  }
  const existing = services.remembered.models.get(id);
  if (existing && !coordinates) return existing;
  if (!existing) await verifyModelId(services, id);
  return remember(services, id, existing, coordinates);
}

async function addById(services: Services, dialogs: Dialogs, id: string): Promise<RememberedModel | undefined> {
  const existing = services.remembered.models.get(id);
  if (existing) {
    dialogs.info(`${modelLabel(existing)} is already in the list of training models.`);
    return existing;
  }
  await verifyModelId(services, id);
  const coordinates = await askModelName(services, dialogs, { title: 'Model name (optional)', required: false });
  const model = await remember(services, id, undefined, coordinates);
  dialogs.info(coordinates ? `Added ${fullName(coordinates)} (id ${id}).` : `Added model ${id}. Name it (Set Entity/Project/Name…) to chat with its checkpoints.`);
  return model;
}

async function addByName(services: Services, dialogs: Dialogs, reference: NamedReference): Promise<RememberedModel | undefined> {
  const { coordinates, step } = reference;
  const full = fullName(coordinates);
  const known = services.remembered.models.list().find((model) => sameCoordinates(model, coordinates));
  if (known) {
    dialogs.info(`${full} is already in the list of training models (id ${known.id}).`, ...chatAction(services, coordinates, step));
    return known;
  }
  const chatId = checkpointModelId(coordinates, step)!;
  // The ids let the tests pick an answer without its icon and words.
  type Choice = vscode.QuickPickItem & { id: 'enterId' | 'findByName' | 'chatOnly' };
  const choices: Choice[] = [
    { id: 'enterId', label: '$(key) Enter its id…', detail: `Adds ${full} by its id, a UUID returned when the model was created. Nothing is created.` },
    {
      id: 'findByName',
      label: '$(search) Find it by name (creates it if the name is free)…',
      detail: `Asks the training API to create ${full} and, if that name is taken, to return the existing model instead: its only answer to a name. Needs a base model.`,
    },
    { id: 'chatOnly', label: '$(comment-discussion) Chat with it without adding it', detail: `Opens ${chatId} in the chat. No id needed, but its checkpoints are not listed.` },
  ];
  const picked = await dialogs.pick(choices, { title: `Add Model: ${full}`, placeHolder: 'The training API finds models only by id. How should RL Studio get this one?' });
  if (!picked) return undefined;
  if (picked.id === 'chatOnly') {
    await openInChat(chatId);
    return undefined;
  }
  if (picked.id === 'findByName') {
    const model = await createModel(
      services,
      dialogs,
      { ...coordinates, return_existing: true },
      { baseModelTitle: `Find ${full}: its base model (used only if the name is free)`, progress: `finding ${full}…` },
    );
    if (model)
      dialogs.info(`Added ${fullName(model)} (id ${model.id}), as the training API returned it: the existing model, or a new one if no model had this name.`, ...chatAction(services, model, step));
    return model;
  }
  const typed = await dialogs.input({
    title: `Add Model: id of ${full}`,
    prompt: `The id of ${full}: a UUID, returned when the model was created. RL Studio checks that the training API has it and keeps the name to build checkpoint model ids; it cannot check that the two belong together, as the training API does not tell a model's name.`,
    placeHolder: `e.g. ${exampleModelId}`,
    validateInput: (value) => {
      if (value.trim() === '') return undefined;
      const problem = idProblem(value, 'model');
      if (problem) return validationError(problem);
      return isModelUuid(value)
        ? validationInfo('A model id: RL Studio checks it on the training API.')
        : validationWarning('Model ids are UUIDs and this is not one: RL Studio will still ask the training API.');
    },
  });
  if (!typed?.trim()) return undefined;
  const id = checkedId(typed, 'model');
  const existing = services.remembered.models.get(id);
  if (!existing) await verifyModelId(services, id);
  const model = await remember(services, id, existing, coordinates);
  dialogs.info(`Added ${full} (id ${id}).`, ...chatAction(services, coordinates, step));
  return model;
}

/** The training API has no GET of one model: listing one checkpoint is how it says whether an id exists. */
async function verifyModelId(services: Services, id: string): Promise<void> {
  const client = await services.client();
  try {
    await withNotification('checking the model id…', () => client.training.listCheckpoints(id, { limit: 1 }));
  } catch (error) {
    if (services.describeFailure(error).kind === 'not-found')
      throw new Error(`The training API has no model with id ${id}. Check the id (it was returned when the model was created) and add it again.`);
    throw error;
  }
}

async function remember(services: Services, id: string, existing: RememberedModel | undefined, coordinates: ModelCoordinates | undefined): Promise<RememberedModel> {
  const model: RememberedModel = { ...(existing ?? { entity: '', project: '', name: '', base_model: '' }), id, ...coordinates };
  await services.remembered.models.add(model);
  services.log.info(`added training model ${id}${coordinates ? ` as ${fullName(coordinates)}` : ' without a name'}`);
  return model;
}

/** Offers the chat on the checkpoint the person named, when a step came with the name. */
function chatAction(services: Services, coordinates: ModelCoordinates, step: number | undefined): { title: string; run: () => unknown }[] {
  const modelId = step === undefined ? undefined : checkpointModelId(coordinates, step);
  const run = () => openInChat(modelId).catch((error: unknown) => services.log.warn(`chat with ${modelId}: ${errorMessage(error)}`));
  return modelId ? [{ title: `Chat with Step ${step}`, run }] : [];
}

function fullName(coordinates: ModelCoordinates): string {
  return `${coordinates.entity}/${coordinates.project}/${coordinates.name}`;
}
