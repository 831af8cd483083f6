import type { Services } from '../platform/host/services';
import { EvalReportProvider } from './host/evalReportEditor';
import { EvalSetDiagnostics } from './host/evalSetDiagnostics';
import { EvalRuns } from './host/evalRuns';
import { chooseEvaluation, existingResults } from './host/evaluateCheckpoints';
import { runFolder, startEvaluation } from './host/startEvaluation';
import { programsOf } from './model/programScorers';
import { chosenPrograms } from './host/programAllowances';

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
export { evaluateCheckpointsTool } from './host/tools/evaluationTool';
