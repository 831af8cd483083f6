/**
 * What a person may type to name a training model, read into one of four forms:
 *
 * - a model id: the UUID the training API returned when the model was created;
 * - a checkpoint model id: `wandb-artifact:///entity/project/name`, optionally with `:stepN`;
 * - `entity/project/name` (also with an optional `:stepN`);
 * - a name alone, which joins the `team/project` of the rlStudio.project setting.
 *
 * The training API finds models only by id; the names are what checkpoint model ids are built
 * from. Everything refused says why in words for an input box. No vscode import: tested in Node.
 */
import { hasDotSegment } from './dotSegments';

/** Names of a training model as the checkpoint model ids need them. */
export interface ModelCoordinates {
  entity: string;
  project: string;
  name: string;
}

export type ModelReference =
  | { form: 'id'; id: string }
  /** `artifact`: wandb-artifact:///…; `path`: entity/project/name; `name`: a name joined to rlStudio.project. */
  | { form: 'artifact' | 'path' | 'name'; coordinates: ModelCoordinates; step?: number };

export type NamedReference = Extract<ModelReference, { coordinates: ModelCoordinates }>;

export type ReferenceReading = { ok: true; reference: ModelReference } | { ok: false; problem: string };

export interface ReadingOptions {
  /** The rlStudio.project setting (`team/project`), or '' when not set. */
  project: string;
  /** False where only a name fits (naming a model that is already added by id). */
  allowId: boolean;
}

/** Longer text is refused before it is read: nothing a person types to name a model comes close. */
export const maxReferenceChars = 512;
/** Each of entity, project and name. */
export const maxPartChars = 128;
/** Digits of a step: more would not be a safe integer. */
const maxStepDigits = 9;

const artifactScheme = 'wandb-artifact:///';
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Hex digits and dashes that start like a UUID: most likely an id cut short when copied. */
const cutUuidPattern = /^[0-9a-f]{8}-[0-9a-f-]*$/i;
/** The characters model, project and entity names are made of on the platform. */
const partPattern = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export const exampleModelId = '0f8fad5b-d9cb-469f-a165-70867728950e';

/**
 * The platform's rule for a model, project or entity name: letters, digits, ".", "_" and "-",
 * starting with a letter or digit. Every place that takes a name asks here; each words its own refusal.
 */
export function isModelNamePart(text: string): boolean {
  return partPattern.test(text);
}

export function isModelUuid(text: string): boolean {
  return uuidPattern.test(text.trim());
}

/** Reads what was typed; the problem, when there is one, is a sentence for the input box. */
export function readModelReference(text: string, options: ReadingOptions): ReferenceReading {
  const typed = text.trim();
  const refuse = (problem: string): ReferenceReading => ({ ok: false, problem });
  if (typed === '') return refuse(options.allowId ? 'Enter a model id or name' : "Enter the model's name");
  if (typed.length > maxReferenceChars) return refuse(`Too long: a model id or name has at most ${maxReferenceChars} characters`);
  if (/[\u0000-\u001f\u007f]/.test(typed)) return refuse('A model id or name cannot hold control characters');
  if (/\s/.test(typed)) return refuse('A model id or name has no spaces');
  if (hasDotSegment(typed, /[/\\:]/)) return refuse('"." and ".." cannot be part of a model id or name: between slashes they would point a request at another address');
  if (typed.includes('%')) return refuse('A model id or name cannot hold "%": percent-encoded text is not read');

  let rest = typed;
  let form: 'artifact' | 'path' | 'name' = 'path';
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(typed)?.[1];
  if (scheme && typed.slice(scheme.length + 1).startsWith('//')) {
    if (typed.toLowerCase().startsWith(artifactScheme)) {
      rest = typed.slice(artifactScheme.length);
      form = 'artifact';
    } else if (scheme.toLowerCase() === 'wandb-artifact') {
      return refuse("Only wandb-artifact:/// with three slashes names a model (wandb-artifact:///entity/project/name); an artifact's internal id cannot be read");
    } else {
      return refuse("A web address is not a model reference: enter the model's id, or wandb-artifact:///entity/project/name");
    }
  }

  const steps = splitStep(rest);
  if (!steps.ok) return steps;
  const parts = steps.path.split('/');
  if (parts.some((part) => part === ''))
    return refuse(form === 'artifact' && steps.path === '' ? 'After wandb-artifact:/// comes entity/project/name' : 'Empty part between slashes: write entity/project/name');
  if (parts.length > 3) return refuse(`Too many parts (${parts.length}): a model is entity/project/name`);
  if (parts.length === 2) return refuse(`Two parts: a model is entity/project/name${options.project ? ', or its name alone' : ''}`);
  if (parts.length === 1 && form === 'artifact') return refuse('After wandb-artifact:/// comes entity/project/name');

  if (parts.length === 3) {
    const [entity, project, name] = parts as [string, string, string];
    const problem = partProblem(entity, 'entity') ?? partProblem(project, 'project') ?? partProblem(name, 'name');
    if (problem) return refuse(problem);
    return { ok: true, reference: withStep({ form, coordinates: { entity, project, name } }, steps.step) };
  }

  const single = parts[0]!;
  if (isModelUuid(single)) {
    if (steps.step !== undefined) return refuse('A model id has no :step suffix: steps follow a name (entity/project/name:stepN)');
    if (!options.allowId) return refuse("This is a model id; here, enter the model's name (entity/project/name)");
    return { ok: true, reference: { form: 'id', id: single } };
  }
  if (options.allowId && steps.step === undefined && cutUuidPattern.test(single)) {
    return refuse(`This looks like a model id cut short: a model id is a UUID of 36 characters, like ${exampleModelId}`);
  }
  const problem = partProblem(single, 'name');
  if (problem) return refuse(problem);
  const team = readProject(options.project);
  if (!options.project) {
    return refuse(
      `"${single}" reads as a model name, and a name needs its entity and project: enter entity/project/${single}, or set rlStudio.project (team/project) to enter names alone${options.allowId ? '. A model id is a UUID' : ''}`,
    );
  }
  if (!team) return refuse(`rlStudio.project is "${options.project}", which is not team/project: enter entity/project/${single}`);
  return { ok: true, reference: withStep({ form: 'name', coordinates: { entity: team.entity, project: team.project, name: single } }, steps.step) };
}

/** `team/project` of the rlStudio.project setting, when both parts are names. */
export function readProject(setting: string): { entity: string; project: string } | undefined {
  const parts = setting.trim().split('/');
  if (parts.length !== 2) return undefined;
  const [entity, project] = parts as [string, string];
  if (partProblem(entity, 'team') || partProblem(project, 'project')) return undefined;
  return { entity, project };
}

/** What was understood, in words for the input box: `model acme/agents/agent-001, step 7`. */
export function describeReference(reference: ModelReference): string {
  if (reference.form === 'id') return `model id ${reference.id}`;
  const { entity, project, name } = reference.coordinates;
  const full = `${entity}/${project}/${name}`;
  const step = reference.step === undefined ? '' : `, step ${reference.step}`;
  if (reference.form === 'name') return `model ${full} (${name} in rlStudio.project ${entity}/${project})${step}`;
  if (reference.form === 'artifact') return `checkpoint model id of ${full}${reference.step === undefined ? ' (latest step)' : step}`;
  return `model ${full}${step}`;
}

/** An example for the input box's placeholder, in the user's own team/project when it is set. */
export function referenceExamples(projectSetting: string): string {
  const team = readProject(projectSetting);
  const path = `${team ? `${team.entity}/${team.project}` : 'acme/agents'}/agent-001`;
  return team ? `e.g. ${exampleModelId}, ${path} or agent-001` : `e.g. ${exampleModelId} or ${path}`;
}

export function sameCoordinates(a: ModelCoordinates, b: ModelCoordinates): boolean {
  return a.entity === b.entity && a.project === b.project && a.name === b.name;
}

function withStep(reference: NamedReference, step: number | undefined): NamedReference {
  return step === undefined ? reference : { ...reference, step };
}

/** Splits `…:stepN` off the end; a colon anywhere else, or any other suffix, is refused. */
function splitStep(text: string): { ok: true; path: string; step?: number } | { ok: false; problem: string } {
  const colon = text.indexOf(':');
  if (colon < 0) return { ok: true, path: text };
  const path = text.slice(0, colon);
  const suffix = text.slice(colon + 1);
  if (suffix.includes('/') || suffix.includes(':')) return { ok: false, problem: '":" may only come at the end, before a step: entity/project/name:stepN' };
  const digits = new RegExp(`^step(\\d{1,${maxStepDigits}})$`).exec(suffix)?.[1];
  if (digits === undefined) return { ok: false, problem: `Only a checkpoint step may follow the name, as :stepN (for example :step12), not ":${suffix}"` };
  return { ok: true, path, step: Number(digits) };
}

function partProblem(part: string, what: string): string | undefined {
  if (part.length > maxPartChars) return `The ${what} is too long: at most ${maxPartChars} characters`;
  if (!isModelNamePart(part)) return `The ${what} "${part}" may hold letters, digits, ".", "_" and "-", starting with a letter or digit`;
  return undefined;
}
