import * as vscode from 'vscode';
import type { Services } from '../services';
import { HealthStatusBar } from '../health/healthStatusBar';
import { registerJobCommands } from '../jobs/jobCommands';
import { JobDetailsPanels } from '../jobs/jobDetailsPanel';
import type { JobsNode } from '../jobs/jobNodes';
import { JobService } from '../jobs/jobService';
import { JobsTreeProvider } from '../jobs/jobsTree';
import { TrajectoryDiagnostics } from '../jobs/trajectoryDiagnostics';
import { registerModelCommands } from '../models/modelCommands';
import type { ModelsNode } from '../models/modelNodes';
import { ModelsTreeProvider } from '../models/modelsTree';
import { Prompts } from './prompts';

/**
 * What the sidebar hands to the extension's API: the two tree providers (read by the extension's
 * tests) and the pieces automation needs to drive flows without a person at the keyboard.
 */
export interface RegisteredViews {
  models: ModelsTreeProvider;
  jobs: JobsTreeProvider;
  /** Dialogs of the sidebar; automation queues answers here. */
  prompts: Prompts;
  jobService: JobService;
  panels: JobDetailsPanels;
  health: HealthStatusBar;
  diagnostics: TrajectoryDiagnostics;
}

/** Creates the Models and Training Jobs views, the job details panels, the health item and their commands. */
export function registerViews(services: Services): RegisteredViews {
  const prompts = new Prompts();
  const jobService = new JobService(services);
  const models = new ModelsTreeProvider(services);
  const jobs = new JobsTreeProvider(services, jobService);
  const panels = new JobDetailsPanels(services, jobService);
  const diagnostics = new TrajectoryDiagnostics();
  const health = new HealthStatusBar(services);

  const modelsView = vscode.window.createTreeView<ModelsNode>('rlStudio.models', { treeDataProvider: models, showCollapseAll: true, canSelectMany: true });
  const jobsView = vscode.window.createTreeView<JobsNode>('rlStudio.jobs', { treeDataProvider: jobs, showCollapseAll: true, canSelectMany: true });
  models.attach(modelsView);
  jobs.attach(jobsView);
  services.context.subscriptions.push(jobService, models, jobs, panels, diagnostics, health, modelsView, jobsView);

  services.registerCommand('rlStudio.refreshModels', () => models.refresh());
  services.registerCommand('rlStudio.refreshJobs', () => jobs.refresh());
  services.registerCommand('rlStudio.checkHealth', () => health.check());
  services.registerCommand('rlStudio.openEmulatorGuide', () => openEmulatorGuide(services));
  registerModelCommands(services, models, modelsView, prompts);
  registerJobCommands({ services, tree: jobs, view: jobsView, prompts, diagnostics, panels });

  return { models, jobs, prompts, jobService, panels, health, diagnostics };
}

/**
 * The emulator lives in the repository's test folder and is not shipped, so the welcome view links
 * to the README section that explains how to start it, opened from the installed extension.
 */
async function openEmulatorGuide(services: Services): Promise<void> {
  const readme = vscode.Uri.joinPath(services.context.extensionUri, 'README.md');
  await vscode.commands.executeCommand('markdown.showPreview', readme.with({ fragment: 'run-against-the-local-emulator' }));
}
