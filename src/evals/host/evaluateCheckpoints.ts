import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Checkpoint } from '../../platform/client/types';
import { checkpointModelId } from '../../platform/kit/checkpointIds';
import type { EvalModelRef, EvalParameters, EvalRunFile } from '../model/evalModel';
import type { NamedScorer } from '../../platform/scoring/scorerSpec';
import { checkSchema } from '../../platform/scoring/jsonSchemaSubset';
import { firstTooDeep, tooDeepMessage } from '../../platform/kit/strictJson';
import type { Dialogs } from '../../platform/host/dialogs';
import type { Services } from '../../platform/host/services';
import type { RememberedModel } from '../../platform/host/rememberedItems';
import { evalSetCandidates, readEvalSet } from './evalSetFiles';
import { readResultsFile } from './resultsFiles';
import { errorMessage } from '../../platform/client/errorMessage';
import { canaryFileStem } from '../model/canary/canaryPins';

/** What a run is asked to do, chosen in the dialogs of "Evaluate Checkpoints…". */
export interface EvaluationChoice {
  setUri: vscode.Uri;
  models: EvalModelRef[];
  scorers: NamedScorer[];
  parameters: EvalParameters;
  resultsUri: vscode.Uri;
}

/** A checkpoint picked in the Models view (the nodes of the view, read by shape: this feature does not load the sidebar's code). */
interface CheckpointPick {
  model: RememberedModel;
  checkpoint: Checkpoint;
}

function checkpointsOf(node: unknown, selection: unknown): CheckpointPick[] {
  const nodes = [...(Array.isArray(selection) ? (selection as unknown[]) : []), node];
  const picks = new Map<string, CheckpointPick>();
  for (const candidate of nodes) {
    const item = candidate as { kind?: unknown; model?: RememberedModel; checkpoint?: Checkpoint } | undefined;
    if (item?.kind !== 'checkpoint' || !item.model || !item.checkpoint) continue;
    picks.set(`${item.model.id}:${item.checkpoint.step}`, { model: item.model, checkpoint: item.checkpoint });
  }
  return [...picks.values()];
}

function checkpointRef(pick: CheckpointPick): EvalModelRef | undefined {
  const id = checkpointModelId(pick.model, pick.checkpoint.step);
  if (!id) return undefined;
  return { id, label: `step ${pick.checkpoint.step}`, kind: 'checkpoint', api: 'training', step: pick.checkpoint.step, trainingModelId: pick.model.id, metrics: { ...pick.checkpoint.metrics } };
}

/**
 * The dialogs of "Evaluate Checkpoints…": the checkpoints (the Models view's selection, or picked
 * from a training model), the eval set, the scorers, what else to compare, the sampling. Returns
 * undefined when the user stops at any step (nothing is asked of the platform before the run).
 */
export async function chooseEvaluation(services: Services, dialogs: Dialogs, node: unknown, selection: unknown): Promise<EvaluationChoice | undefined> {
  let picks = checkpointsOf(node, selection);
  if (picks.length === 0) picks = (await pickCheckpoints(services, dialogs)) ?? [];
  const checkpoints = picks.map(checkpointRef).filter((ref): ref is EvalModelRef => ref !== undefined);
  if (checkpoints.length === 0) return undefined;

  const setUri = await pickEvalSet(dialogs);
  if (!setUri) return undefined;
  const set = await readEvalSet(setUri);
  if (set.samples.length === 0) {
    const first = set.problems[0];
    dialogs.error(`${path.posix.basename(setUri.path)} has no sample to evaluate${first ? `: line ${first.line + 1}: ${first.message}` : ''}. Nothing was sent.`);
    return undefined;
  }
  const hasReferences = set.samples.some((sample) => sample.reference !== undefined);
  const scorers = await pickScorers(services, dialogs, hasReferences);
  if (!scorers || scorers.length === 0) return undefined;
  const others = await pickOthers(services, dialogs, picks[0]!);
  if (!others) return undefined;
  const parameters = await pickParameters(dialogs);
  if (!parameters) return undefined;

  return { setUri, models: [...checkpoints, ...others], scorers, parameters, resultsUri: resultsUriFor(setUri) };
}

/** Where a set's results are kept: one file per set in its workspace folder, which is also the answers' cache. */
export function resultsUriFor(setUri: vscode.Uri): vscode.Uri {
  const folder = vscode.workspace.getWorkspaceFolder(setUri)?.uri ?? vscode.Uri.joinPath(setUri, '..');
  const base = resultsBaseName(setUri.path);
  return vscode.Uri.joinPath(folder, '.rlstudio', 'evals', `${base}.rleval.json`);
}

/** Where a model's canary on a set keeps its results: beside the set's own results, named by the model. */
export function canaryResultsUri(setUri: vscode.Uri, modelName: string): vscode.Uri {
  const folder = vscode.workspace.getWorkspaceFolder(setUri)?.uri ?? vscode.Uri.joinPath(setUri, '..');
  return vscode.Uri.joinPath(folder, '.rlstudio', 'evals', `${canaryFileStem(modelName)}-${resultsBaseName(setUri.path)}.rleval.json`);
}

/**
 * The results file's name: the set's name without its extensions; a step of the official client's
 * log (`<model>/trajectories/<split>/0003.parquet`) is named by its model and split too, as every
 * model's steps are named alike.
 */
function resultsBaseName(setPath: string): string {
  const parts = setPath.split('/');
  const name = parts.at(-1)!;
  if (/\.parquet$/i.test(name) && parts.at(-3) === 'trajectories' && parts.length >= 4) return `${parts.at(-4)}-${parts.at(-2)}-${name.replace(/\.parquet$/i, '')}`;
  return name.replace(/(\.evalset|\.trajectories)?\.(jsonl?|parquet)$/i, '');
}

async function pickCheckpoints(services: Services, dialogs: Dialogs): Promise<CheckpointPick[] | undefined> {
  const models = services.remembered.models.list();
  if (models.length === 0) {
    dialogs.info('Add or create a training model in the Models view first: its checkpoints are what gets evaluated.');
    return undefined;
  }
  const model =
    models.length === 1
      ? models[0]!
      : (
          await dialogs.pick(
            models.map((candidate) => ({ label: String(candidate.name || candidate.id), detail: candidate.id, model: candidate })),
            { title: 'Evaluate Checkpoints: training model' },
          )
        )?.model;
  if (!model) return undefined;
  const client = await services.client();
  const page = await client.training.listCheckpoints(model.id, { order: 'desc', limit: 100 });
  const picked = await dialogs.pick(
    page.data.map((checkpoint) => ({
      label: `step ${checkpoint.step}`,
      description: Object.entries(checkpoint.metrics)
        .filter(([key]) => key !== 'step')
        .slice(0, 3)
        .map(([key, value]) => `${key} ${value}`)
        .join(' · '),
      checkpoint,
    })),
    { title: `Evaluate Checkpoints of ${String(model.name || model.id)}`, canPickMany: true, placeHolder: 'Pick the checkpoints to compare' },
  );
  const chosen = Array.isArray(picked) ? (picked as { checkpoint: Checkpoint }[]) : picked ? [picked as { checkpoint: Checkpoint }] : [];
  return chosen.map((item) => ({ model, checkpoint: item.checkpoint }));
}

export async function pickEvalSet(dialogs: Dialogs, title = 'Evaluate Checkpoints: eval set'): Promise<vscode.Uri | undefined> {
  const candidates = await evalSetCandidates();
  const other = { label: '$(folder-opened) Choose a file…', uri: undefined as vscode.Uri | undefined };
  const picked = await dialogs.pick([...candidates.map((uri) => ({ label: vscode.workspace.asRelativePath(uri), uri })), other], { title });
  if (!picked) return undefined;
  return picked.uri ?? dialogs.openFile({ title: 'Eval set', filters: { 'Eval sets and trajectory groups': ['jsonl', 'json', 'parquet'] }, openLabel: 'Evaluate' });
}

/** The scorers dialog; `allowPrograms` false leaves out the command scorer (for what runs with no one watching). */
export async function pickScorers(
  services: Services,
  dialogs: Dialogs,
  hasReferences: boolean,
  title = 'Evaluate Checkpoints: scorers (the first ranks the leaderboard)',
  allowPrograms = true,
): Promise<NamedScorer[] | undefined> {
  type Item = vscode.QuickPickItem & { make: () => Promise<NamedScorer | undefined> };
  const fixed = (name: string, spec: NamedScorer['spec']) => async () => ({ name, spec });
  const items: Item[] = [
    { label: 'Exact match', description: 'the answer equals the reference', picked: hasReferences, make: fixed('exact match', { kind: 'exactMatch' }) },
    { label: 'Contains the reference', description: 'the reference appears in the answer', make: fixed('contains', { kind: 'contains' }) },
    { label: 'Valid JSON', description: 'the answer (or its first code block) parses as JSON', make: fixed('valid JSON', { kind: 'validJson' }) },
    {
      label: 'Regular expression…',
      make: async () => {
        const pattern = await dialogs.input({ title: 'Regular expression the answer must match', prompt: 'JavaScript syntax, e.g. ^Answer: \\d+$' });
        return pattern ? { name: `matches /${pattern.slice(0, 40)}/`, spec: { kind: 'regex', pattern, flags: 'm' } } : undefined;
      },
    },
    {
      label: 'JSON Schema…',
      description: 'the answer parses as JSON and satisfies a schema file of the workspace',
      make: async () => {
        const file = await dialogs.openFile({ title: 'JSON Schema the answers must satisfy', filters: { 'JSON Schema': ['json'] }, openLabel: 'Use Schema' });
        if (!file) return undefined;
        const schema = await readSchema(file);
        if (typeof schema === 'string') {
          dialogs.error(schema);
          return undefined;
        }
        return { name: `schema ${path.posix.basename(file.path).slice(0, 60)}`, spec: { kind: 'jsonSchema', schema } };
      },
    },
    {
      label: 'Length at most…',
      make: async () => {
        const max = await dialogs.input({ title: 'Longest answer, in words', value: '200', validateInput: (value) => (/^\d+$/.test(value.trim()) ? undefined : 'A whole number') });
        return max ? { name: `at most ${max.trim()} words`, spec: { kind: 'length', unit: 'words', max: Number(max) } } : undefined;
      },
    },
    {
      label: 'LLM judge…',
      description: 'a catalogue model grades each answer against a rubric',
      make: async () => {
        const client = await services.client();
        const models = (await client.inference.listModels()).data.map((model) => model.id);
        const judge = await dialogs.pick(
          models.map((id) => ({ label: id })),
          { title: 'Judge model' },
        );
        if (!judge) return undefined;
        const rubric = await dialogs.input({
          title: 'Rubric',
          prompt: 'What a good answer does, e.g. "Correct final number, reasoning shown, no repetition"',
          value: 'The final answer is correct and the reasoning is shown.',
        });
        return rubric ? { name: `judge ${judge.label.split('/').at(-1)}`, spec: { kind: 'judge', model: judge.label, rubric } } : undefined;
      },
    },
  ];
  if (vscode.workspace.isTrusted && allowPrograms) {
    items.push({
      label: 'Command…',
      description: 'a program of this workspace scores each answer (trusted workspaces only)',
      make: async () => {
        const command = await dialogs.input({ title: 'Scorer command', prompt: 'Reads {"sample", "answer"} as JSON on stdin and prints a score from 0 to 1, e.g. python score.py' });
        if (!command?.trim()) return undefined;
        const [program, ...args] = command.trim().split(/\s+/);
        return { name: `command ${program}`, spec: { kind: 'command', command: program!, args } };
      },
    });
  }
  const picked = await dialogs.pick(items, { title, canPickMany: true });
  const chosen = Array.isArray(picked) ? (picked as Item[]) : picked ? [picked as Item] : [];
  const scorers: NamedScorer[] = [];
  for (const item of chosen) {
    const scorer = await item.make();
    if (scorer && !scorers.some((existing) => existing.name === scorer.name)) scorers.push(scorer);
  }
  return scorers;
}

async function pickOthers(services: Services, dialogs: Dialogs, first: CheckpointPick): Promise<EvalModelRef[] | undefined> {
  type Item = vscode.QuickPickItem & { ref: EvalModelRef };
  const items: Item[] = [];
  const baseId = checkpointModelId(first.model, 0);
  if (baseId)
    items.push({ label: 'Base model (step 0)', description: 'the model before training', ref: { id: baseId, label: 'base', kind: 'base', api: 'training', step: 0, trainingModelId: first.model.id } });
  try {
    const client = await services.client();
    for (const model of (await client.inference.listModels()).data.slice(0, 50)) {
      items.push({ label: model.id, description: 'catalogue model', ref: { id: model.id, label: model.id.split('/').at(-1) ?? model.id, kind: 'catalogue', api: 'inference' } });
    }
  } catch (error) {
    services.log.warn(`listing catalogue models for an evaluation failed: ${services.describeFailure(error).message}`);
  }
  if (items.length === 0) return [];
  const picked = await dialogs.pick(items, { title: 'Compare with (optional)', canPickMany: true, placeHolder: 'Press Enter to compare the checkpoints alone' });
  if (picked === undefined) return undefined;
  return (Array.isArray(picked) ? (picked as Item[]) : [picked as Item]).map((item) => item.ref);
}

/** Largest schema file read: a schema is a page of JSON, not data. */
const maxSchemaBytes = 1024 * 1024;

/** A schema file's value, checked against the subset the scorer supports, or why it cannot be used. */
async function readSchema(file: vscode.Uri): Promise<unknown> {
  const name = path.posix.basename(file.path);
  try {
    if ((await vscode.workspace.fs.stat(file)).size > maxSchemaBytes) return `${name} is larger than ${maxSchemaBytes / 1024} KB: not a schema RL Studio reads.`;
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(file));
    if (firstTooDeep(text) >= 0) return `${name} is JSON ${tooDeepMessage}.`;
    const schema: unknown = JSON.parse(text);
    const problem = checkSchema(schema);
    return problem ? `${name} cannot be used as a scorer: ${problem}.` : schema;
  } catch (error) {
    return `${name} could not be read as JSON (${errorMessage(error)}).`;
  }
}

/** The two ways checkpoints are compared: one greedy answer, or four sampled ones. */
export const samplingPresets = {
  deterministic: { label: 'Deterministic', description: 'temperature 0, seed 0, 1 answer per prompt, 512 tokens', parameters: { temperature: 0, seed: 0, n: 1, maxTokens: 512 } },
  sampled: { label: 'Sampled', description: 'temperature 0.7, seed 0, 4 answers per prompt, 512 tokens', parameters: { temperature: 0.7, seed: 0, n: 4, maxTokens: 512 } },
} satisfies Record<string, { label: string; description: string; parameters: EvalParameters }>;

async function pickParameters(dialogs: Dialogs): Promise<EvalParameters | undefined> {
  const choices = [samplingPresets.deterministic, samplingPresets.sampled];
  return (await dialogs.pick(choices, { title: 'Evaluate Checkpoints: sampling' }))?.parameters;
}

/** The results file already written for this set, whose answers the run reuses; undefined when there is none or it cannot be read. */
export async function existingResults(uri: vscode.Uri, services: Services): Promise<EvalRunFile | undefined> {
  const read = await readResultsFile(uri);
  if (read.ok) return read.run;
  if (!read.missing) services.log.warn(`results file ${uri.fsPath} is not read (${read.problem}); the run starts afresh`);
  return undefined;
}
