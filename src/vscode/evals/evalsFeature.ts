import type { Services } from '../platform/services';
import { EvalReportProvider } from './evalReportEditor';
import { EvalRuns } from './evalRuns';
import { chooseEvaluation, existingResults } from './evaluateCheckpoints';
import { startEvaluation } from './startEvaluation';

export interface EvalsFeature {
  report: EvalReportProvider;
  runs: EvalRuns;
}

/**
 * Entry of dist/evals.js, loaded when an evaluation starts or a results file opens: the command
 * "Evaluate Checkpoints…", the runs going now and the report editor.
 */
export function startEvals(services: Services): EvalsFeature {
  const runs = new EvalRuns();
  services.context.subscriptions.push(runs);
  services.registerCommand('rlStudio.evaluateCheckpoints', async (node?: unknown, selection?: unknown) => {
    const choice = await chooseEvaluation(services, services.dialogs, node, selection);
    if (!choice) return undefined;
    return startEvaluation(services, runs, choice, await existingResults(choice.resultsUri, services));
  });
  return { report: new EvalReportProvider(services, runs), runs };
}
