import type { Services } from '../platform/services';
import { EvalReportProvider } from './evalReportEditor';
import { EvalSetDiagnostics } from './evalSetDiagnostics';
import { EvalRuns } from './evalRuns';
import { chooseEvaluation, existingResults } from './evaluateCheckpoints';
import { runFolder, startEvaluation } from './startEvaluation';
import { programsOf } from '../../evals/programScorers';
import { chosenPrograms } from './programAllowances';

export interface EvalsFeature {
  report: EvalReportProvider;
  runs: EvalRuns;
  diagnostics: EvalSetDiagnostics;
}

/**
 * Entry of dist/evals.js, loaded when an evaluation starts or a results file opens: the command
 * "Evaluate Checkpoints…", the runs going now, the report editor and the eval sets' diagnostics.
 */
export function startEvals(services: Services): EvalsFeature {
  const runs = new EvalRuns();
  const diagnostics = new EvalSetDiagnostics();
  services.context.subscriptions.push(runs, diagnostics);
  services.registerCommand('rlStudio.evaluateCheckpoints', async (node?: unknown, selection?: unknown) => {
    const choice = await chooseEvaluation(services, services.dialogs, node, selection);
    if (!choice) return undefined;
    // The person chose these scorers in this window's dialog: their programs may run.
    const programs = chosenPrograms(services, programsOf(choice.scorers, runFolder(choice.setUri)));
    return startEvaluation(services, runs, choice, await existingResults(choice.resultsUri, services), { programs });
  });
  return { report: new EvalReportProvider(services, runs), runs, diagnostics };
}
