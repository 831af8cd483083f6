import * as path from 'node:path';
import * as vscode from 'vscode';
import { checkpointModelId, parseCheckpointModelId } from '../../platform/kit/checkpointIds';
import { contentDigestInSlices } from '../../platform/kit/confirmationText';
import type { EvalRunFile } from '../model/evalModel';
import type { ParsedEvalSet } from '../model/evalSet';
import { programsOf } from '../../platform/scoring/programScorers';
import { describeRequests, summarizeRequests, unknownModels, type KnownModels, type RequestSummary } from '../model/requestSummary';
import { checkParameters, planRun, type RunPlan } from '../model/runPlan';
import type { Services } from '../../platform/host/services';
import type { EvalRuns } from './evalRuns';
import { readEvalSet } from './evalSetFiles';
import { allowNamedPrograms, refusedInRestrictedMode } from './programAllowances';
import { readResultsFile } from './resultsFiles';
import { runFolder, startEvaluation } from './startEvaluation';
import { resolveWorkspacePath } from './workspaceFilePaths';

/**
 * What a retry from the report asks: the failed answers with these keys (all failed ones when
 * none), the answers the file lacks, or these answers again whatever they hold (re-scoring answers
 * that came with the file).
 */
export type RetryRequest = { failed: readonly string[] } | { missing: true } | { again: readonly string[] };

/**
 * A retry from a results file's report. The file is somebody's data: it may name any models,
 * scorers, token limit or eval set path. So a retry of failed answers sends exactly those requests
 * (no missing answer, no new scoring of kept answers), to the models of those answers, within the
 * bounds of a run; anything the person did not just ask for asks first: the answers the file lacks,
 * a model that is neither a checkpoint of a remembered training model nor in the catalogue, any
 * request at all in Restricted Mode (a modal naming the requests, the models and max_tokens). A
 * program the file names runs only once allowed (programAllowances.ts), and never in Restricted
 * Mode: a refused program refuses the whole retry with a message, so no answer is left with a
 * score missing. The set path must stay in the workspace. Everything is checked against the file
 * as read once; the run asks exactly that. Resolves with the run going, or undefined when nothing
 * was started (the reason shown to the person).
 */
export async function retryFromResults(services: Services, runs: EvalRuns, resultsUri: vscode.Uri, request: RetryRequest): Promise<{ finished: Promise<EvalRunFile | undefined> } | undefined> {
  const name = path.posix.basename(resultsUri.path);
  const refuse = (message: string): undefined => {
    services.dialogs.error(services.log.redact(message));
    return undefined;
  };
  if (runs.get(resultsUri)) return refuse('An evaluation is already running for this results file: wait for it, or cancel it in its report.');
  const folder = vscode.workspace.getWorkspaceFolder(resultsUri);
  if (!folder) return refuse(`${name} is not in a workspace folder, so its eval set cannot be found. Nothing was sent.`);

  const read = await readResults(resultsUri);
  if ('problem' in read) return refuse(`${read.problem} Nothing was sent.`);
  const { digest } = read;
  // Answers asked again are planned as failed ones: the file's text and scores for them are not kept.
  const againKeys = 'again' in request ? new Set(request.again) : undefined;
  const run = againKeys
    ? { ...read.run, answers: read.run.answers.map((answer) => (againKeys.has(answer.key) ? { ...answer, text: undefined, error: 'asked again: it came with the file', scores: {} } : answer)) }
    : read.run;
  const tooMuch = checkParameters(run.parameters);
  if (tooMuch) return refuse(`Nothing was sent: ${name} asks for more than a run may: ${tooMuch}.`);

  let setUri: vscode.Uri;
  let set: ParsedEvalSet;
  let plan: RunPlan;
  let missing = 0;
  try {
    setUri = await resolveWorkspacePath(folder.uri, run.set.path, 'eval set');
    set = await readEvalSet(setUri);
    const base = { samples: set.samples, models: run.models, parameters: run.parameters, scorers: run.scorers, existing: run };
    if ('again' in request) {
      plan = planRun({ ...base, retryFailed: request.again, onlyRetry: true });
    } else if ('failed' in request) {
      plan = planRun({ ...base, retryFailed: request.failed.length > 0 ? request.failed : true, onlyRetry: true });
      // What the file describes and does not hold.
      missing = Math.max(0, set.samples.length * run.models.length * run.parameters.n - plan.total);
    } else {
      plan = planRun(base);
    }
  } catch (error) {
    return refuse(`${services.describeFailure(error).message}${/nothing was (read|sent)/i.test(String(error)) ? '' : ' Nothing was sent.'}`);
  }
  const summary = summarizeRequests(plan, run.scorers);
  if (summary.requests === 0) {
    services.dialogs.info('missing' in request ? `${name} lacks no answer: nothing to ask.` : `Nothing to ask again: none of those answers is in ${name}.`);
    return undefined;
  }

  const uses = programsOf(run.scorers, runFolder(setUri));
  const restrictedPrograms = refusedInRestrictedMode(uses, { label: name, digest, kind: 'results file' });
  if (restrictedPrograms) return refuse(restrictedPrograms);
  const unknown = unknownModels(summary, await knownModels(services, summary));
  const restricted = !vscode.workspace.isTrusted;
  if (!('failed' in request) || restricted || unknown.length > 0) {
    if (!(await confirmRequests(services, name, request, summary, run, unknown, restricted))) return undefined;
  }
  const programs = await allowNamedPrograms(services, uses, { label: name, digest, kind: 'results file' });
  if ('refused' in programs) return refuse(programs.refused);

  const retried = plan.items.map((item) => item.key);
  const finished = startEvaluation(
    services,
    runs,
    { setUri, models: run.models, scorers: run.scorers, parameters: run.parameters, resultsUri },
    run,
    'missing' in request ? { set, programs: programs.allowed } : { retryFailed: retried, onlyRetry: true, set, programs: programs.allowed },
  );
  if (missing > 0)
    services.dialogs.info(`${name} also lacks ${missing.toLocaleString('en-US')} answers that were never asked; the retry sends only the failed ones.`, {
      title: 'Ask Them…',
      run: () => void retryFromResults(services, runs, resultsUri, { missing: true }),
    });
  return { finished };
}

/** The results file, read as the report reads it, and the digest of the bytes that were read. */
async function readResults(uri: vscode.Uri): Promise<{ run: EvalRunFile; digest: string } | { problem: string }> {
  const read = await readResultsFile(uri);
  return read.ok ? { run: read.run, digest: await contentDigestInSlices(read.bytes) } : { problem: read.problem };
}

/** The person's models: remembered training models and pinned checkpoints; the catalogue listed only when an inference model is asked. */
async function knownModels(services: Services, summary: RequestSummary): Promise<KnownModels> {
  const remembered = services.remembered.models.list();
  const pinned = new Set(services.remembered.pinned.list().map((pin) => pin.id));
  const isKnownCheckpoint = (id: string): boolean => {
    if (pinned.has(id)) return true;
    const reference = parseCheckpointModelId(id);
    return reference?.step !== undefined && remembered.some((model) => checkpointModelId(model, reference.step) === id);
  };
  let catalogue: Set<string> | undefined;
  if (summary.models.some((model) => model.api === 'inference')) {
    try {
      const client = await services.client();
      catalogue = new Set((await client.inference.listModels()).data.map((model) => model.id));
    } catch (error) {
      services.log.warn(`listing the model catalogue for a retry failed: ${services.describeFailure(error).message}`);
    }
  }
  return { isKnownCheckpoint, catalogue };
}

async function confirmRequests(
  services: Services,
  name: string,
  request: RetryRequest,
  summary: RequestSummary,
  run: EvalRunFile,
  unknown: ReturnType<typeof unknownModels>,
  restricted: boolean,
): Promise<boolean> {
  const answers = summary.models.filter((model) => !model.judge).reduce((sum, model) => sum + model.requests, 0);
  const count = `${answers.toLocaleString('en-US')} ${'failed' in request ? 'failed ' : ''}answer${answers === 1 ? '' : 's'}`;
  const what = 'failed' in request ? `Retry ${count}` : 'again' in request ? `Ask again ${count} that came with the file` : `Ask ${count} ${name} lacks`;
  const detail = [
    ...describeRequests(summary, run.parameters, unknown),
    ...(restricted ? ['This workspace is in Restricted Mode: the results file came with a folder you have not trusted.'] : []),
    `The models, the token limit and the samples are those ${name} names.`,
  ];
  return services.dialogs.confirm(`${what} of ${name}?`, services.log.redact(detail.join('\n')), `Send ${summary.requests.toLocaleString('en-US')} Request${summary.requests === 1 ? '' : 's'}`);
}
