import { maxRunsCompared } from '../protocol';
import type { Services } from '../../platform/host/services';
import { jobLabel, type JobsNode } from './jobs/jobNodes';
import { modelLabel, type ModelsNode } from './models/modelNodes';
import type { RunChartsPanels } from './runChartsPanels';

/**
 * Compare Runs: the models and jobs selected in the view it was run from are ticked in a list of
 * every training model and job RL Studio follows, where the person adds any from the other view;
 * their metrics are then overlaid on the same axes.
 */
export async function compareRuns(services: Services, charts: RunChartsPanels, node?: ModelsNode | JobsNode, selection?: (ModelsNode | JobsNode)[]): Promise<void> {
  const chosen = new Set<string>();
  for (const item of selection ?? (node ? [node] : [])) {
    if (item.kind === 'trainingModel') chosen.add(`model:${item.model.id}`);
    else if (item.kind === 'job') chosen.add(`job:${item.job.id}`);
  }
  const items = [
    ...services.remembered.models
      .list()
      .map((model) => ({ id: `model:${model.id}`, label: modelLabel(model), description: 'model · checkpoints by model step', picked: chosen.has(`model:${model.id}`) })),
    ...services.remembered.jobs.list().map((job) => ({ id: `job:${job.id}`, label: jobLabel(job), description: `job ${job.id.slice(0, 8)} · gradient steps`, picked: chosen.has(`job:${job.id}`) })),
  ];
  if (items.length === 0) {
    services.dialogs.info('Nothing to compare yet: add or create a training model, or follow a training job.');
    return;
  }
  const picked = await services.dialogs.pickMany(items, { title: 'Compare Runs', placeHolder: `Tick up to ${maxRunsCompared} models and jobs: their metrics share the charts` });
  if (!picked || picked.length === 0) return;
  if (picked.length > maxRunsCompared) services.dialogs.warn(`${picked.length} runs were ticked: the first ${maxRunsCompared} are compared.`);
  const models = picked.flatMap((item) => (item.id.startsWith('model:') ? (services.remembered.models.get(item.id.slice('model:'.length)) ?? []) : []));
  const jobs = picked.flatMap((item) => (item.id.startsWith('job:') ? [item.id.slice('job:'.length)] : []));
  charts.show(models, jobs);
}
