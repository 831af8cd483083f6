import * as vscode from 'vscode';
import { HealthStatusBar } from '../platform/host/healthStatusBar';
import { jobDetailsViewType, runChartsViewType } from './protocol';
import type { JobsNode } from './host/jobs/jobNodes';
import { DeferredTreeProvider } from '../platform/host/lazy/deferredTreeProvider';
import { onFirstUse } from '../platform/host/lazy/onFirstUse';
import type { ModelsNode } from './host/models/modelNodes';
import { movingJobsKey } from '../platform/host/rememberedItems';
import type { Services } from '../platform/host/services';
import type * as SidebarFeature from '.';
import type { RegisteredViews } from '.';

export type { RegisteredViews } from '.';

/**
 * What must exist from activation on: the Models and Training Jobs views, the job details panel
 * serializer, the health item and every sidebar command. The rest (dist/training.js) loads when a
 * view first shows its content, a job details panel is restored, a command first runs or the
 * extension's API reads the views. Returns that loader.
 */
export function registerViews(services: Services): () => RegisteredViews {
  const health = new HealthStatusBar(services);
  const sidebar = onFirstUse('sidebar', services.log, () => {
    const feature = (require('.') as typeof SidebarFeature).startSidebar(services, { models: modelsView, jobs: jobsView, health });
    models.attach(feature.models);
    jobs.attach(feature.jobs);
    return feature;
  });
  services.registerFeatureCommands('training', sidebar);
  const models = new DeferredTreeProvider<ModelsNode>(sidebar);
  const jobs = new DeferredTreeProvider<JobsNode>(sidebar);
  const modelsView = vscode.window.createTreeView<ModelsNode>('rlStudio.models', { treeDataProvider: models, showCollapseAll: true, canSelectMany: true });
  const jobsView = vscode.window.createTreeView<JobsNode>('rlStudio.jobs', { treeDataProvider: jobs, showCollapseAll: true, canSelectMany: true });
  services.context.subscriptions.push(
    health,
    models,
    jobs,
    modelsView,
    jobsView,
    vscode.window.registerWebviewPanelSerializer(jobDetailsViewType, {
      deserializeWebviewPanel: async (panel, state: unknown) => sidebar().panels.restore(panel, state),
    }),
    vscode.window.registerWebviewPanelSerializer(runChartsViewType, {
      deserializeWebviewPanel: async (panel, state: unknown) => sidebar().runCharts.restore(panel, state),
    }),
  );

  followMovingJobs(services, sidebar);
  services.registerCommand('rlStudio.checkHealth', () => health.check());
  services.registerCommand('rlStudio.openEmulatorGuide', () => openEmulatorGuide(services));
  return sidebar;
}

/** After start-up, when a followed job was last seen moving: long enough not to slow the window's start. */
const followMovingAfterMs = 3_000;

/**
 * A job that was running when the window closed may end while no view is open: when one was, the
 * sidebar's job service starts a few seconds after activation (not during it), so its end is told.
 */
function followMovingJobs(services: Services, sidebar: () => RegisteredViews): void {
  const moving = services.context.globalState.get<unknown>(movingJobsKey(services.settings.current.trainingApiUrl));
  if (!Array.isArray(moving) || moving.length === 0) return;
  const timer = setTimeout(() => sidebar().jobService.sync(), followMovingAfterMs);
  services.context.subscriptions.push({ dispose: () => clearTimeout(timer) });
}

/**
 * The emulator lives in the repository's test folder and is not shipped, so the welcome view links
 * to the README section that explains how to start it, opened from the installed extension.
 */
async function openEmulatorGuide(services: Services): Promise<void> {
  const readme = vscode.Uri.joinPath(services.context.extensionUri, 'README.md');
  await vscode.commands.executeCommand('markdown.showPreview', readme.with({ fragment: 'run-against-the-local-emulator' }));
}
