import * as vscode from 'vscode';
import { onFirstUse } from '../platform/host/lazy/onFirstUse';
import type { Services } from '../platform/host/services';
import { canaryPinsKey } from '../platform/host/rememberedItems';
import type * as EvalsFeature from '.';
import { isEvalSetDocument } from './host/evalSetFileNames';
import { evalReportViewType } from './protocol';

/**
 * What must exist from activation on for checkpoint evaluation: the report editor of results files
 * and the command, and the diagnostics of eval sets. The rest (dist/evals.js) loads when the command
 * first runs, a report opens or an eval set is opened.
 */
export function registerEvals(services: Services, hooks: EvalsFeature.CanaryHooks): () => EvalsFeature.EvalsFeature {
  const evals = onFirstUse('evaluations', services.log, () => (require('.') as typeof EvalsFeature).startEvals(services, hooks));
  services.registerFeatureCommands('evals', evals);
  followPinnedCanaries(services, evals);
  // An eval set opened (or open already) loads the feature for its diagnostics; other files never do.
  const checkEvalSet = (document: vscode.TextDocument): void => {
    if (isEvalSetDocument(document)) evals().diagnostics.check(document);
  };
  for (const document of vscode.workspace.textDocuments) checkEvalSet(document);
  services.context.subscriptions.push(
    vscode.workspace.onDidOpenTextDocument(checkEvalSet),
    vscode.window.registerCustomEditorProvider(evalReportViewType, {
      openCustomDocument: (uri) => evals().report.openCustomDocument(uri),
      resolveCustomEditor: (document, panel) => evals().report.resolveCustomEditor(document, panel),
    }),
  );
  return evals;
}

/** After start-up, when a canary is pinned in this workspace: long enough not to slow the window's start. */
const startCanariesAfterMs = 3_000;

/** A pinned canary evaluates new checkpoints with no view open: it starts a few seconds after activation (not during it). */
function followPinnedCanaries(services: Services, evals: () => EvalsFeature.EvalsFeature): void {
  const pins = services.context.workspaceState.get<unknown>(canaryPinsKey(services.settings.current.trainingApiUrl));
  if (!Array.isArray(pins) || pins.length === 0) return;
  const timer = setTimeout(() => evals().canary.start(), startCanariesAfterMs);
  services.context.subscriptions.push({ dispose: () => clearTimeout(timer) });
}
