import * as vscode from 'vscode';
import type { Services } from '../platform/host/services';
import type { RegisteredViews } from '../training';
import { RunDashboardPanels } from './host/runDashboardPanels';
import { TaskRuns } from './host/startTaskRun';
import { TaskFileDiagnostics } from './host/taskFileDiagnostics';
import { isTaskFile } from './host/taskFileNames';

export interface TaskRunsFeature {
  runs: TaskRuns;
  dashboards: RunDashboardPanels;
  diagnostics: TaskFileDiagnostics;
}

/**
 * Entry of dist/taskRuns.js, loaded when a task file is opened or a run command first runs:
 * the task files' diagnostics, and starting, resuming and stopping runs.
 */
export function startTaskRuns(services: Services, sidebar: () => RegisteredViews): TaskRunsFeature {
  const runs: TaskRuns = new TaskRuns(services, sidebar, (folder) => dashboards.show(folder));
  const dashboards = new RunDashboardPanels(services, runs);
  const diagnostics = new TaskFileDiagnostics();
  services.context.subscriptions.push(runs, dashboards, diagnostics);
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
  services.registerCommand('rlStudio.openRunDashboard', async (given?: unknown) => {
    const folder = await runFolderOf(services, given);
    if (folder) dashboards.show(folder);
    else services.dialogs.info('No training run yet: start one from a task file (*.rltask.json).');
  });
  return { runs, dashboards, diagnostics };
}

/** The run folder of a run.json, a run folder, or the one picked among the workspace's runs. */
async function runFolderOf(services: Services, given: unknown): Promise<vscode.Uri | undefined> {
  if (given instanceof vscode.Uri) return /\/run\.json$/.test(given.path) ? vscode.Uri.joinPath(given, '..') : given;
  const files = await vscode.workspace.findFiles('**/.rlstudio/runs/*/run.json', '**/node_modules/**', 100);
  if (files.length <= 1) return files[0] && vscode.Uri.joinPath(files[0], '..');
  const picked = await services.dialogs.pick(
    files.map((uri) => ({ label: vscode.workspace.asRelativePath(vscode.Uri.joinPath(uri, '..')), uri })),
    { title: 'Open Run Dashboard' },
  );
  return picked && vscode.Uri.joinPath(picked.uri, '..');
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
