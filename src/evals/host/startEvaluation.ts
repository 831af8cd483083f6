import * as path from 'node:path';
import * as vscode from 'vscode';
import { quoted } from '../../platform/kit/confirmationText';
import type { EvalRunFile } from '../model/evalModel';
import type { Services } from '../../platform/host/services';
import { createEvalRun } from './evalRunner';
import type { EvalRuns } from './evalRuns';
import { readEvalSet } from './evalSetFiles';
import type { ParsedEvalSet } from '../model/evalSet';
import { noPrograms, type AllowedPrograms } from './programAllowances';
import type { EvaluationChoice } from './evaluateCheckpoints';
import { evalReportViewType } from '../protocol';

/** The folder a run's command scorers run in: the eval set's workspace folder. */
export function runFolder(setUri: vscode.Uri): string {
  return vscode.workspace.getWorkspaceFolder(setUri)?.uri.fsPath ?? path.dirname(setUri.fsPath);
}

/** How a run goes beyond its choice. */
export interface EvaluationOptions {
  /** Ask failed answers again: all, or those keys. */
  retryFailed?: boolean | string[];
  /** Ask only those failed answers: nothing missing, nothing kept scored again (a retry). */
  onlyRetry?: boolean;
  /** The eval set as already read (and confirmed): the run asks exactly it, not the file read again. */
  set?: ParsedEvalSet;
  /** The programs the run may start; none unless given. */
  programs?: AllowedPrograms;
}

/**
 * Runs an evaluation: the report opens on its results file at once and fills as answers come; a
 * notification shows the progress and cancels. Answers already in the file with the same model,
 * sample and sampling are reused. A command scorer runs only when `options.programs` allows it.
 */
export async function startEvaluation(
  services: Services,
  runs: EvalRuns,
  choice: EvaluationChoice,
  existing: EvalRunFile | undefined,
  options: EvaluationOptions = {},
): Promise<EvalRunFile | undefined> {
  const { retryFailed, onlyRetry } = options;
  const set = options.set ?? (await readEvalSet(choice.setUri));
  const folder = runFolder(choice.setUri);
  const evaluation = createEvalRun(
    services,
    {
      samples: set.samples,
      models: choice.models,
      scorers: choice.scorers,
      parameters: choice.parameters,
      setPath: vscode.workspace.asRelativePath(choice.setUri, false),
      ...(existing ? { existing } : {}),
      ...(retryFailed !== undefined ? { retryFailed } : {}),
      ...(onlyRetry ? { onlyRetry } : {}),
    },
    choice.resultsUri,
    folder,
    options.programs ?? noPrograms,
  );
  const run = evaluation.run;
  try {
    const done = runs.run(choice.resultsUri, run);
    await vscode.commands.executeCommand('vscode.openWith', choice.resultsUri, evalReportViewType);
    const finished = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Evaluating checkpoints', cancellable: true }, async (progress, token) => {
      token.onCancellationRequested(() => runs.cancel(choice.resultsUri));
      let reported = 0;
      const stop = run.onAnswers((_, state) => {
        const settled = state.done + state.failed;
        if (state.total > 0 && settled > reported) {
          progress.report({ increment: (100 * (settled - reported)) / state.total, message: `${settled} of ${state.total} answers${state.failed ? `, ${state.failed} failed` : ''}` });
          reported = settled;
        }
      });
      try {
        return await done;
      } finally {
        stop();
      }
    });
    const failed = finished.answers.filter((answer) => answer.error !== undefined).length;
    services.log.info(`evaluation of ${choice.models.length} models on ${set.samples.length} samples written to ${choice.resultsUri.fsPath} (${finished.answers.length} answers, ${failed} failed)`);
    // The progress notification has gone: an evaluation whose answers failed says so, with what helps.
    if (failed > 0) {
      const reason = finished.answers.find((answer) => answer.error !== undefined)?.error ?? '';
      services.dialogs.warn(
        services.log.redact(
          `${failed.toLocaleString('en-US')} of ${finished.answers.length.toLocaleString('en-US')} answers failed, for example: ${quoted(reason, 200)}. The report lists them; Retry there asks them again.`,
        ),
        { title: 'Open Report', run: () => void vscode.commands.executeCommand('vscode.openWith', choice.resultsUri, evalReportViewType) },
      );
    }
    return finished;
  } catch (error) {
    services.showError(error, 'evaluating checkpoints');
    return undefined;
  } finally {
    evaluation.dispose();
  }
}
