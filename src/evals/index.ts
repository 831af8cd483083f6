import type { Services } from '../platform/host/services';
import { EvalReportProvider } from './host/evalReportEditor';
import { EvalSetDiagnostics } from './host/evalSetDiagnostics';
import { EvalRuns } from './host/evalRuns';
import { chooseEvaluation, existingResults } from './host/evaluateCheckpoints';
import { runFolder, startEvaluation } from './host/startEvaluation';
import { programsOf } from '../platform/scoring/programScorers';
import { chosenPrograms } from './host/programAllowances';
import { CanaryService, type CanaryHooks } from './host/canary/canaryService';
import { pinCanary, unpinCanary } from './host/canary/pinCanary';

export interface EvalsFeature {
  report: EvalReportProvider;
  runs: EvalRuns;
  diagnostics: EvalSetDiagnostics;
  canary: CanaryService;
}

/**
 * Entry of dist/evals.js, loaded when an evaluation starts or a results file opens: the command
 * "Evaluate Checkpoints…", the runs going now, the report editor, the eval sets' diagnostics, and the
 * canaries that evaluate each new checkpoint of a model by themselves.
 */
export function startEvals(services: Services, hooks: CanaryHooks): EvalsFeature {
  const runs = new EvalRuns();
  const diagnostics = new EvalSetDiagnostics();
  const canary = new CanaryService(services, runs, hooks);
  services.context.subscriptions.push(runs, diagnostics, canary);
  services.registerCommand('rlStudio.pinCanary', (node?: unknown) => pinCanary(services, canary, node));
  services.registerCommand('rlStudio.unpinCanary', (node?: unknown) => unpinCanary(services, canary, node));
  services.registerCommand('rlStudio.evaluateCheckpoints', async (node?: unknown, selection?: unknown) => {
    const choice = await chooseEvaluation(services, services.dialogs, node, selection);
    if (!choice) return undefined;
    // The person chose these scorers in this window's dialog: their programs may run.
    const programs = chosenPrograms(services, programsOf(choice.scorers, runFolder(choice.setUri)));
    return startEvaluation(services, runs, choice, await existingResults(choice.resultsUri, services), { programs });
  });
  return { report: new EvalReportProvider(services, runs), runs, diagnostics, canary };
}
export { evaluateCheckpointsTool } from './host/tools/evaluationTool';
export { type CanaryDrop, type CanaryHooks } from './host/canary/canaryService';
export { createEvalRun } from './host/evalRunner';
export { readEvalSet } from './host/evalSetFiles';
export { existingResults } from './host/evaluateCheckpoints';
export { resolveWorkspacePath } from './host/workspaceFilePaths';
export { leaderboard } from './model/statistics';
export { type EvalModelRef, type EvalSample } from './model/evalModel';
export { allowNamedPrograms } from './host/programAllowances';
