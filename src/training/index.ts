import type * as vscode from 'vscode';
import type { HealthStatusBar } from '../platform/host/healthStatusBar';
import { registerJobCommands, type TrajectoryActions } from './host/jobs/jobCommands';
import { JobDetailsPanels } from './host/jobs/jobDetailsPanel';
import type { JobsNode } from './host/jobs/jobNodes';
import { modelWithNewCheckpoints } from './host/jobs/checkpointChanges';
import { JobNotifications } from './host/jobs/jobNotifications';
import { JobService } from './host/jobs/jobService';
import { JobsTreeProvider } from './host/jobs/jobsTree';
import { TrajectoryDiagnostics } from './host/jobs/trajectoryDiagnostics';
import { pickTrainingModel, registerModelCommands } from './host/models/modelCommands';
import { RunChartsPanels } from './host/runChartsPanels';
import { compareRuns } from './host/compareRuns';
import type { ModelsNode } from './host/models/modelNodes';
import { ModelsTreeProvider } from './host/models/modelsTree';
import type { Services } from '../platform/host/services';

/**
 * What the sidebar hands to the extension's API: the two tree providers (read by the extension's
 * tests) and the pieces automation needs to drive flows without a person at the keyboard.
 */
export interface RegisteredViews {
  models: ModelsTreeProvider;
  jobs: JobsTreeProvider;
  jobService: JobService;
  panels: JobDetailsPanels;
  runCharts: RunChartsPanels;
  health: HealthStatusBar;
  diagnostics: TrajectoryDiagnostics;
  trajectories: TrajectoryActions;
}

/** What exists from activation on (see register.ts) and the sidebar works with. */
export interface SidebarViews {
  models: vscode.TreeView<ModelsNode>;
  jobs: vscode.TreeView<JobsNode>;
  health: HealthStatusBar;
}

/**
 * Entry of dist/training.js, loaded when a sidebar view first shows its content or one of its
 * commands first runs: the tree providers, the job service, the job details panels and the
 * commands of models and jobs.
 */
export function startSidebar(services: Services, views: SidebarViews): RegisteredViews {
  const dialogs = services.dialogs;
  const jobService = new JobService(services);
  const models = new ModelsTreeProvider(services);
  const jobs = new JobsTreeProvider(services, jobService);
  const panels = new JobDetailsPanels(services, jobService);
  const diagnostics = new TrajectoryDiagnostics();
  models.attach(views.models);
  jobs.attach(views.jobs);
  const notifications = new JobNotifications(services, jobService, panels);
  const runCharts = new RunChartsPanels(services, jobService, panels);
  services.context.subscriptions.push(jobService, models, jobs, panels, runCharts, diagnostics, notifications, followCheckpoints(services, jobService, models));

  services.registerCommand('rlStudio.refreshModels', () => models.refresh());
  services.registerCommand('rlStudio.refreshJobs', () => jobs.refresh());
  registerModelCommands(services, models, views.models, dialogs);
  services.registerCommand('rlStudio.openModelTraining', async (node?: ModelsNode) => {
    const model = node?.kind === 'trainingModel' ? node.model : await pickTrainingModel(services, dialogs, 'Open Training Charts');
    if (model) runCharts.show([model], []);
  });
  services.registerCommand('rlStudio.compareRuns', (node?: ModelsNode | JobsNode, selection?: (ModelsNode | JobsNode)[]) => compareRuns(services, runCharts, node, selection));
  const trajectories = registerJobCommands({ services, tree: jobs, view: views.jobs, dialogs, diagnostics, panels });

  return { models, jobs, jobService, panels, runCharts, health: views.health, diagnostics, trajectories };
}

/**
 * Keeps the checkpoints of models being trained current: when a followed job reports a new
 * checkpoint, the Models view reads that model's newest checkpoints again (if they are shown; at
 * most every few seconds per model).
 */
function followCheckpoints(services: Services, jobService: JobService, models: ModelsTreeProvider): vscode.Disposable {
  return jobService.onDidChangeJob((change) => {
    const modelId = modelWithNewCheckpoints(services, change);
    if (modelId) models.checkpointsMayHaveChanged(modelId);
  });
}
export { type CreatedJobResult, type GroupsToSend } from './host/jobs/createJobs';
export { useInChat } from './host/models/useInChat';
export { addModel } from './host/models/addModel';
export { createModel } from './host/models/createModel';
export { type Confirmation } from './model/trainingConfirmations';
export { jobMetricsTool, jobStatusTool } from './host/tools/jobTools';
export { listJobsTool, listModelsTool, platformStatusTool, readJob } from './host/tools/platformTools';
export { checkpointId, createModelTool, deleteCheckpointsTool, knownModel, namedModel, startSftTool, startTrainingTool, trainingOrigin } from './host/tools/trainingTools';
export { explainJobFacts } from './model/jobReport';
export { validateTrajectoriesTool } from './host/tools/trajectoryTools';
export { modelWithNewCheckpoints } from './host/jobs/checkpointChanges';
export { type RunSeriesSource } from './host/runChartsPanels';
export { type RunMetric } from './protocol';
export { JobNoticeRules, type JobNotice } from './model/jobNotices';
export { numberJobSteps } from './model/jobSteps';
export { isTerminal, numericEntries } from './model/jobStatus';
export type { JobChange, JobRecord } from './model/jobTracker';
