import * as vscode from 'vscode';
import type { Services } from '../../../platform/host/services';
import { checkedId, idProblem } from '../../../platform/trust/ids';
import { readyForTraining, withNotification } from '../flowGuards';
import { revealWhenListed } from '../revealWhenListed';
import type { Dialogs } from '../../../platform/host/dialogs';
import { createSftJob, createTrainingJobFromFile, logGroups, logTrajectoriesFromFile, trainOnGroups, type CreatedJobResult, type GroupsToSend, type LoggedGroups } from './createJobs';
import type { JobDetailsPanels } from './jobDetailsPanel';
import { jobLabel, type JobsNode, type MoreEventsNode } from './jobNodes';
import type { JobsTreeProvider } from './jobsTree';
import type { TrajectoryDiagnostics } from './trajectoryDiagnostics';
import { copyAndSay } from '../../../platform/host/clipboard';

export interface JobCommandDeps {
  services: Services;
  tree: JobsTreeProvider;
  view: vscode.TreeView<JobsNode>;
  dialogs: Dialogs;
  diagnostics: TrajectoryDiagnostics;
  panels: JobDetailsPanels;
}

/** What other features (the rollout inspector) do with trajectory groups they read themselves. */
export interface TrajectoryActions {
  /** Asks for a model and settings, confirms, creates the job and announces it in the Training Jobs view. */
  train(read: GroupsToSend): Promise<CreatedJobResult | undefined>;
  /** Asks for a model and a split, confirms, then logs the groups. */
  log(read: GroupsToSend): Promise<LoggedGroups | undefined>;
}

/** Commands of the Training Jobs view and the trajectory-file commands of the explorer and editor. */
export function registerJobCommands({ services, tree, view, dialogs, diagnostics, panels }: JobCommandDeps): TrajectoryActions {
  const reveal = (jobId: string) => revealWhenListed(view, tree, jobId);
  const announce = (jobId: string, what: string) => {
    reveal(jobId);
    dialogs.info(`${what} started. It is followed live in the Training Jobs view.`, { title: 'Open Details', run: () => panels.show(jobId) });
  };

  services.registerCommand('rlStudio.createTrainingJob', async (uri?: unknown) => {
    const created = await createTrainingJobFromFile(services, dialogs, diagnostics, uri);
    if (created) announce(created.id, 'Training job');
    return created;
  });

  services.registerCommand('rlStudio.createSftJob', async () => {
    const created = await createSftJob(services, dialogs);
    if (created) announce(created.id, 'Fine-tuning job');
    return created;
  });

  services.registerCommand('rlStudio.logTrajectories', (uri?: unknown) => logTrajectoriesFromFile(services, dialogs, diagnostics, uri));

  services.registerCommand('rlStudio.addJob', async (given?: unknown) => {
    if (!(await readyForTraining(services))) return undefined;
    const typed =
      typeof given === 'string'
        ? given
        : await dialogs.input({
            title: 'Add Training Job by ID',
            prompt: 'The id of a training job (a UUID)',
            validateInput: (value) => idProblem(value, 'training job'),
          });
    if (!typed?.trim()) return undefined;
    const id = checkedId(typed, 'training job');
    if (!services.remembered.jobs.get(id)) {
      const client = await services.client();
      const job = await withNotification('checking the job id…', () => client.training.getTrainingJob(id)).catch((error: unknown) => {
        if (services.describeFailure(error).kind === 'not-found') throw new Error(`The training API has no training job with id ${id}.`);
        throw error;
      });
      const modelId = typeof job.model_id === 'string' ? job.model_id : undefined;
      await services.remembered.jobs.add({ id, modelId, addedAt: new Date().toISOString() });
    }
    reveal(id);
    return id;
  });

  services.registerCommand('rlStudio.removeJob', async (node?: JobsNode, selection?: JobsNode[]) => {
    // The selection counts only when the row right-clicked is part of it: otherwise it may still
    // hold a row removed a moment ago, and the one clicked would stay.
    const inSelection = node?.kind === 'job' && selection?.some((item) => item.kind === 'job' && item.job.id === node.job.id);
    const nodes = node ? (inSelection ? selection! : [node]) : (selection ?? []);
    for (const item of nodes) {
      if (item.kind !== 'job') continue;
      panels.close(item.job.id);
      await services.remembered.jobs.remove(item.job.id);
    }
  });

  services.registerCommand('rlStudio.copyJobId', async (node?: JobsNode) => {
    if (node?.kind !== 'job') return;
    await copyAndSay(node.job.id, `Copied ${node.job.id}`);
  });

  services.registerCommand('rlStudio.openJobDetails', async (node?: JobsNode | string) => {
    const jobId = typeof node === 'string' ? checkedId(node, 'training job') : node?.kind === 'job' ? node.job.id : await pickJob(services, dialogs);
    if (jobId) panels.show(jobId);
  });

  services.registerCommand('rlStudio.refreshJob', (node?: JobsNode) => {
    if (node?.kind === 'job') tree.refreshJob(node.job.id);
    else tree.refresh();
  });

  services.registerCommand('rlStudio.showOlderEvents', (node?: MoreEventsNode) => {
    if (node?.kind === 'moreEvents') tree.showOlder(node);
  });

  return {
    train: async (read) => {
      const created = await trainOnGroups(services, dialogs, read);
      if (created) announce(created.id, 'Training job');
      return created;
    },
    log: (read) => logGroups(services, dialogs, read),
  };
}

async function pickJob(services: Services, dialogs: Dialogs): Promise<string | undefined> {
  const jobs = services.remembered.jobs.list();
  if (jobs.length === 0) return undefined;
  const picked = await dialogs.pick(
    jobs.map((job) => ({ label: jobLabel(job), description: job.id, id: job.id })),
    { title: 'Training job' },
  );
  return picked?.id;
}
