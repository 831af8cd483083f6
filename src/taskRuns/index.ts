import * as vscode from 'vscode';
import type { Services } from '../platform/host/services';
import type { RegisteredViews } from '../training';
import { TaskRuns } from './host/startTaskRun';
import { isTaskFile, TaskFileDiagnostics } from './host/taskFileDiagnostics';

export interface TaskRunsFeature {
  runs: TaskRuns;
  diagnostics: TaskFileDiagnostics;
}

/**
 * Entry of dist/taskRuns.js, loaded when a task file is opened or a run command first runs:
 * the task files' diagnostics, and starting, resuming and stopping runs.
 */
export function startTaskRuns(services: Services, sidebar: () => RegisteredViews): TaskRunsFeature {
  const runs = new TaskRuns(services, sidebar);
  const diagnostics = new TaskFileDiagnostics();
  services.context.subscriptions.push(runs, diagnostics);
  const taskUriOf = (given: unknown): vscode.Uri | undefined => {
    if (given instanceof vscode.Uri && isTaskFile(given)) return given;
    const active = vscode.window.activeTextEditor?.document.uri;
    return active && isTaskFile(active) ? active : undefined;
  };
  services.registerCommand('rlStudio.startTaskRun', async (given?: unknown) => {
    const uri = taskUriOf(given) ?? (await pickTaskFile(services));
    return uri ? runs.start(uri) : undefined;
  });
  services.registerCommand('rlStudio.stopTaskRun', (given?: unknown) => {
    if (!runs.stop(taskUriOf(given))) services.dialogs.info('No training run of a task file is going in this window.');
  });
  return { runs, diagnostics };
}

async function pickTaskFile(services: Services): Promise<vscode.Uri | undefined> {
  const files = await vscode.workspace.findFiles('**/*.rltask.json', '**/node_modules/**', 100);
  if (files.length === 0) {
    services.dialogs.info('No task file (*.rltask.json) in the workspace: write one (the README shows an example) and start it from its editor.');
    return undefined;
  }
  const picked = await services.dialogs.pick(
    files.map((uri) => ({ label: vscode.workspace.asRelativePath(uri), uri })),
    { title: 'Start Training Run: task file' },
  );
  return picked?.uri;
}
