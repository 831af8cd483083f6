import * as vscode from 'vscode';
import { onFirstUse } from '../platform/lazy/onFirstUse';
import type { Services } from '../platform/services';
import type * as EvalsFeature from './evalsFeature';
import { evalReportViewType } from './evalsViewTypes';

/**
 * What must exist from activation on for checkpoint evaluation: the report editor of results files
 * and the command. The rest (dist/evals.js) loads when the command first runs or a report opens.
 */
export function registerEvals(services: Services): () => EvalsFeature.EvalsFeature {
  const evals = onFirstUse('evaluations', services.log, () => (require('./evalsFeature') as typeof EvalsFeature).startEvals(services));
  services.registerFeatureCommands('evals', evals);
  services.context.subscriptions.push(
    vscode.window.registerCustomEditorProvider(evalReportViewType, {
      openCustomDocument: (uri) => evals().report.openCustomDocument(uri),
      resolveCustomEditor: (document, panel) => evals().report.resolveCustomEditor(document, panel),
    }),
  );
  return evals;
}
