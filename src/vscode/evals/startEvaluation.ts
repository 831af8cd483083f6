import * as path from 'node:path';
import * as vscode from 'vscode';
import type { EvalRunFile } from '../../evals/evalModel';
import type { Services } from '../platform/services';
import { createEvalRun } from './evalRunner';
import type { EvalRuns } from './evalRuns';
import { readEvalSet } from './evalSetFiles';
import type { EvaluationChoice } from './evaluateCheckpoints';
import { evalReportViewType } from './evalsViewTypes';

/**
 * Runs an evaluation: the report opens on its results file at once and fills as answers come; a
 * notification shows the progress and cancels. `retryFailed` asks failed answers again (all, or
 * those keys). Answers already in the file with the same model, sample and sampling are reused.
 */
export async function startEvaluation(
  services: Services,
  runs: EvalRuns,
  choice: EvaluationChoice,
  existing: EvalRunFile | undefined,
  retryFailed?: boolean | string[],
): Promise<EvalRunFile | undefined> {
  const set = await readEvalSet(choice.setUri);
  const folder = vscode.workspace.getWorkspaceFolder(choice.setUri)?.uri.fsPath ?? path.dirname(choice.setUri.fsPath);
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
    },
    choice.resultsUri,
    folder,
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
    return finished;
  } catch (error) {
    services.showError(error, 'evaluating checkpoints');
    return undefined;
  } finally {
    evaluation.dispose();
  }
}
