import * as vscode from 'vscode';
import { onFirstUse } from '../platform/host/lazy/onFirstUse';
import type { Services } from '../platform/host/services';
import type { RegisteredViews } from '../training';
import type * as TaskRunsModule from '.';
import { taskRunViewType } from './protocol';
import { isTaskFile } from './host/taskFileNames';

/**
 * What must exist from activation on for training from task files: the commands, and a task file
 * opened (or open already) loading the feature for its diagnostics. The rest (dist/taskRuns.js)
 * loads on first use.
 */
export function registerTaskRuns(services: Services, sidebar: () => RegisteredViews): () => TaskRunsModule.TaskRunsFeature {
  const feature = onFirstUse('task runs', services.log, () => (require('.') as typeof TaskRunsModule).startTaskRuns(services, sidebar));
  services.registerFeatureCommands('taskRuns', feature);
  const check = (document: vscode.TextDocument): void => {
    if (isTaskFile(document.uri)) feature().diagnostics.check(document);
  };
  for (const document of vscode.workspace.textDocuments) check(document);
  services.context.subscriptions.push(
    vscode.window.registerWebviewPanelSerializer(taskRunViewType, {
      deserializeWebviewPanel: async (panel, state: unknown) => feature().dashboards.restore(panel, state),
    }),
    vscode.workspace.onDidOpenTextDocument(check),
    vscode.workspace.onDidChangeTextDocument((event) => check(event.document)),
    vscode.workspace.onDidCloseTextDocument((document) => {
      if (isTaskFile(document.uri)) feature().diagnostics.forget(document.uri);
    }),
  );
  return feature;
}
