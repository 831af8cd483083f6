import type { Checkpoint } from '../../../platform/client/types';
import { describeLeaderboard } from '../../model/leaderboardText';
import { optionalBoolean, optionalChoice, optionalText, optionalTextList, requiredId, stepList, ToolInputError, ToolRefusal, workspacePath } from '../../../platform/agent/toolInput';
import type { EvalModelRef } from '../../model/evalModel';
import type { NamedScorer } from '../../../platform/scoring/scorerSpec';
import { primaryScorer } from '../../model/evalRun';
import { leaderboard } from '../../model/statistics';
import type { EvalRuns } from '../evalRuns';
import { maxEvalSetBytes, readEvalSet } from '../evalSetFiles';
import { existingResults, resultsUriFor, samplingPresets, type EvaluationChoice } from '../evaluateCheckpoints';
import { startEvaluation } from '../startEvaluation';
import type { Services } from '../../../platform/host/services';
import * as vscode from 'vscode';
import type { AgentTool } from '../../../platform/agent/agentTool';
import { contentDigest, quoted, stepRanges } from '../../../platform/kit/confirmationText';
import { pagesInTurn } from '../../../platform/kit/pagesInTurn';
import { escapedLine } from '../../../platform/agent/foreignText';
import { evaluateCheckpointsConfirmation, modelNamed } from '../../../platform/agent/toolConfirmations';
import { checkpointId, knownModel, namedModel, trainingOrigin } from '../../../training';
import { workspaceFile, type WorkspaceFile } from '../../../platform/agent/workspaceFiles';

/** Checkpoints compared in one evaluation from a chat: each multiplies the requests. */
const maxEvaluatedSteps = 10;
/** Checkpoint pages read to find the steps asked for (100 a page). */
const maxCheckpointPages = 10;

const scorerChoices = {
  exact: { name: 'exact match', spec: { kind: 'exactMatch' } },
  contains: { name: 'contains', spec: { kind: 'contains' } },
  json: { name: 'valid JSON', spec: { kind: 'validJson' } },
} as const;

interface EvaluationInput {
  modelId: string;
  steps: number[];
  evalSet: string;
  scorers: NamedScorer[];
  sampling: keyof typeof samplingPresets;
  compareWithBase: boolean;
}

/** What an evaluation's confirmation named: the checkpoints resolved to model ids, and the eval set by its digest. */
interface EvaluationPlan {
  choice: EvaluationChoice;
  setPath: string;
  setLabel: string;
  setDigest: string;
}

/** The digest of an eval set's bytes as they are now; a file past the size an eval set may be is not read. */
async function digestOf(file: WorkspaceFile): Promise<string> {
  const { size } = await vscode.workspace.fs.stat(file.uri);
  if (size > maxEvalSetBytes) throw new ToolRefusal(`${quoted(file.label)} is ${Math.round(size / 2 ** 20)} MB, more than the ${maxEvalSetBytes / 2 ** 20} MB an eval set may be. Nothing was sent.`);
  return contentDigest(await vscode.workspace.fs.readFile(file.uri));
}

export function evaluateCheckpointsTool(services: Services, evals: () => { runs: EvalRuns }): AgentTool<EvaluationInput, EvaluationPlan> {
  /** The set, the checkpoints found on the platform, and what the run will ask. */
  const prepare = async (input: EvaluationInput, signal: AbortSignal) => {
    const model = knownModel(services, input.modelId);
    const file = await workspaceFile(input.evalSet);
    // Digested before and after it is parsed: the samples counted are those of the bytes the digest names.
    const setDigest = await digestOf(file);
    const set = await readEvalSet(file.uri);
    if ((await digestOf(file)) !== setDigest) throw new ToolRefusal(`${quoted(file.label)} changed while it was read. Nothing was sent; call the tool again.`);
    if (set.samples.length === 0)
      throw new ToolRefusal(
        `${quoted(file.label)} has no sample to evaluate${set.problems[0] ? `: line ${set.problems[0].line + 1}: ${escapedLine(set.problems[0].message)}` : ''}. Nothing was sent.`,
      );
    const found = await findCheckpoints(services, model.id, input.steps, signal);
    const missing = input.steps.filter((step) => !found.has(step));
    if (missing.length > 0) throw new ToolRefusal(`${modelNamed(namedModel(model))} has no checkpoint at step ${stepRanges(missing)}. List its checkpoints with the list-models tool.`);
    const models: EvalModelRef[] = input.steps.map((step) => ({
      id: checkpointId(model, step),
      label: `step ${step}`,
      kind: 'checkpoint',
      api: 'training',
      step,
      trainingModelId: model.id,
      metrics: { ...found.get(step)!.metrics },
    }));
    if (input.compareWithBase && !input.steps.includes(0)) models.push({ id: checkpointId(model, 0), label: 'base', kind: 'base', api: 'training', step: 0, trainingModelId: model.id });
    const parameters = samplingPresets[input.sampling].parameters;
    const choice: EvaluationChoice = { setUri: file.uri, models, scorers: input.scorers, parameters, resultsUri: resultsUriFor(file.uri) };
    return { model, file, set, choice, setDigest };
  };
  return {
    name: 'rlstudio_evaluate_checkpoints',
    needsPlatform: true,
    read: (input) => {
      const steps = stepList(input, 'steps');
      if (steps.length > maxEvaluatedSteps) throw new ToolInputError(`"steps" names ${steps.length} checkpoints; at most ${maxEvaluatedSteps} are compared in one evaluation.`);
      const scorers: NamedScorer[] = (optionalTextList(input, 'scorers', 3) ?? ['exact']).map((name) => {
        const scorer = scorerChoices[name as keyof typeof scorerChoices];
        if (!scorer) throw new ToolInputError(`"scorers" may hold "exact", "contains" and "json"; "${name}" is not one.`);
        return { name: scorer.name, spec: { ...scorer.spec } } as NamedScorer;
      });
      const pattern = optionalText(input, 'regex', 500);
      if (pattern !== undefined) scorers.push({ name: `matches /${pattern.slice(0, 40)}/`, spec: { kind: 'regex', pattern, flags: 'm' } });
      return {
        modelId: requiredId(input, 'modelId'),
        steps,
        evalSet: workspacePath(input, 'evalSet'),
        scorers: scorers.filter((scorer, index) => scorers.findIndex((other) => other.name === scorer.name) === index),
        sampling: optionalChoice(input, 'sampling', ['deterministic', 'sampled'] as const) ?? 'deterministic',
        compareWithBase: optionalBoolean(input, 'compareWithBase') ?? false,
      };
    },
    confirm: async (input, signal) => {
      const { model, file, set, choice, setDigest } = await prepare(input, signal);
      return {
        confirmation: evaluateCheckpointsConfirmation({
          model: namedModel(model),
          steps: input.steps,
          withBase: input.compareWithBase && !input.steps.includes(0),
          evalSet: file.label,
          samples: set.samples.length,
          models: choice.models.length,
          answersPerSample: choice.parameters.n,
          scorers: choice.scorers.map((scorer) => scorer.name),
          resultsFile: vscode.workspace.asRelativePath(choice.resultsUri),
          origin: trainingOrigin(services),
        }),
        plan: { choice, setPath: file.uri.fsPath, setLabel: file.label, setDigest },
      };
    },
    progress: (input) => `Evaluating steps ${stepRanges(input.steps)} on ${input.evalSet}`,
    run: async (input, signal, { choice, setPath, setLabel, setDigest }) => {
      // The checkpoints are not looked up again: the run asks the model ids the confirmation named.
      const file = await workspaceFile(input.evalSet);
      if (file.uri.fsPath !== setPath || (await digestOf(file)) !== setDigest)
        throw new ToolRefusal(
          `The file changed after you confirmed; nothing was sent. ${quoted(setLabel)} no longer holds the samples the confirmation counted: call the tool again to confirm what it holds now.`,
        );
      const feature = evals();
      const cancel = () => feature.runs.cancel(choice.resultsUri);
      signal.addEventListener('abort', cancel, { once: true });
      try {
        const finished = await startEvaluation(services, feature.runs, choice, await existingResults(choice.resultsUri, services));
        if (!finished) throw new ToolRefusal('The evaluation did not finish; its error is shown in the editor and the RL Studio log. Answers already received are kept in the results file.');
        const failed = finished.answers.filter((answer) => answer.error !== undefined).length;
        const scorer = primaryScorer(choice.scorers);
        const table = describeLeaderboard(leaderboard(finished, scorer), scorer, vscode.workspace.asRelativePath(choice.resultsUri));
        return `${table}\n${finished.answers.length} answers${failed > 0 ? `, ${failed} failed (retry them from the report)` : ''}. The report is open in the editor; promote a checkpoint there with "Use step N".`;
      } finally {
        signal.removeEventListener('abort', cancel);
      }
    },
  };
}

async function findCheckpoints(services: Services, modelId: string, steps: readonly number[], signal: AbortSignal): Promise<Map<number, Checkpoint>> {
  const client = await services.client();
  const wanted = new Set(steps);
  const found = new Map<number, Checkpoint>();
  const pages = pagesInTurn((after) => client.training.listCheckpoints(modelId, { order: 'desc', limit: 100, ...(after ? { after } : {}) }, { signal }), maxCheckpointPages);
  for await (const page of pages) {
    for (const checkpoint of page) if (wanted.has(checkpoint.step)) found.set(checkpoint.step, checkpoint);
    if (found.size >= wanted.size) break;
  }
  return found;
}
