import type { RememberedModel } from '../../platform/host/rememberedItems';
import type { Services } from '../../platform/host/services';
import { quoted } from '../../platform/kit/confirmationText';
import { isModelNamePart, readProject } from '../../platform/kit/modelReference';
import { addModel, createModel } from '../../training';
import { platformName, type LocalModel } from '../model/discovery';
import { followConfirmation, followProblem } from '../model/followWords';
import type { LocalRunLinks } from './localRunLinks';

/**
 * Follow on Platform: the local model becomes a model of the Models view, with its checkpoints,
 * found by its entity, project and name. The training API answers a name only through create with
 * `return_existing` (the Models view's own Add by Name does the same), so the confirmation says
 * that a model of that name is created when none exists. When model.json carries the platform's
 * id, adding by that id (nothing created) is offered first.
 */
export async function followOnPlatform(services: Services, links: LocalRunLinks, model: LocalModel): Promise<RememberedModel | undefined> {
  const { dialogs } = services;
  const problem = followProblem(model.facts);
  if (problem) {
    dialogs.warn(`${quoted(platformName(model))} cannot be followed: ${problem}.`);
    return undefined;
  }
  const name = platformName(model);
  const project = model.facts?.project ?? model.project;
  for (const [part, value] of [
    ['name', name],
    ['project', project],
  ] as const) {
    if (!isModelNamePart(value)) {
      dialogs.warn(`${quoted(name)} cannot be followed: its ${part} ${quoted(value)} is not a name the platform accepts (letters, digits, ".", "_" and "-").`);
      return undefined;
    }
  }
  const entity = model.facts?.entity ?? readProject(services.settings.current.project)?.entity ?? (await askEntity(services, name, project));
  if (entity === undefined) return undefined;

  if (model.facts?.id) {
    const byId = 'Add by Its Id';
    const byName = 'Find or Create by Name';
    const chosen = await dialogs.choose(
      `${quoted(name)}'s model.json names its platform id ${quoted(model.facts.id)}. Add the model by that id?`,
      {
        modal: true,
        detail: `By its id: RL Studio checks that the training API has it; nothing is created.\nBy name: a model ${quoted(name)} is created in ${quoted(`${entity || 'your default entity'}/${project}`)} if none exists.`,
      },
      byId,
      byName,
    );
    if (chosen === undefined) return undefined;
    if (chosen === byId) {
      const added = await addModel(services, dialogs, model.facts.id, entity ? `${entity}/${project}/${name}` : undefined);
      if (added) await linkAndSay(services, links, added, model);
      return added;
    }
  }

  const base_model = model.facts?.base_model ?? (await askBaseModel(services, name));
  if (!base_model) return undefined;
  const followed = await createModel(
    services,
    dialogs,
    { ...(entity ? { entity } : {}), project, name, base_model, return_existing: true },
    { confirmation: (request, url) => followConfirmation(request, url, model.path), progress: `following ${name}…` },
  );
  if (followed) await linkAndSay(services, links, followed, model);
  return followed;
}

async function linkAndSay(services: Services, links: LocalRunLinks, followed: RememberedModel, model: LocalModel): Promise<void> {
  await links.link(followed.id, model.path);
  services.log.info(`local model ${model.path} follows training model ${followed.id}`);
  services.dialogs.info(
    `Following ${quoted(`${followed.entity}/${followed.project}/${followed.name}`)} (id ${followed.id}): its checkpoints are in the Models view, and its logged rollouts one click away there.`,
  );
}

/** The entity is not in model.json nor in rlStudio.project: the person says, or leaves it to their default. */
async function askEntity(services: Services, name: string, project: string): Promise<string | undefined> {
  const typed = await services.dialogs.input({
    title: `Follow ${name}: entity`,
    prompt: `model.json names no entity and rlStudio.project no team: the entity (user or team) that owns ${project}. Leave empty for your default entity.`,
    validateInput: (value) => (value.trim() === '' || isModelNamePart(value.trim()) ? undefined : 'Letters, digits, ".", "_" and "-"'),
  });
  return typed?.trim();
}

async function askBaseModel(services: Services, name: string): Promise<string | undefined> {
  const typed = await services.dialogs.input({
    title: `Follow ${name}: base model`,
    prompt: 'model.json names no base model. The base model is used only if no model of this name exists and one is created, for example OpenPipe/Qwen3-14B-Instruct.',
    validateInput: (value) => (value.trim() === '' ? 'Enter a base model' : undefined),
  });
  return typed?.trim() || undefined;
}
