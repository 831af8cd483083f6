import { describeJobForAgent, describeMetricsForAgent } from '../../model/jobReport';
import { optionalTextList } from '../../../platform/agent/toolInput';
import type { Services } from '../../../platform/host/services';
import type { AgentTool } from '../../../platform/agent/agentTool';
import { jobIdInput, optionalField, readJob } from './platformTools';

/** A note when the page cap stopped the reading: the figures cover the events read. */
function cappedNote(more: boolean): string {
  return more ? '\n(The job has more events than RL Studio reads at once; the figures cover the first 5,000.)' : '';
}

export function jobStatusTool(services: Services): AgentTool<{ jobId: string }> {
  return {
    name: 'rlstudio_job_status',
    needsPlatform: true,
    read: jobIdInput,
    progress: (input) => `Reading job ${input.jobId}`,
    run: async (input, signal) => {
      const { record, events, more } = await readJob(services, input.jobId, signal);
      const remembered = services.remembered.jobs.get(input.jobId);
      const model = remembered?.modelId ? services.remembered.models.get(remembered.modelId) : undefined;
      return describeJobForAgent(record, events, { now: Date.now(), ...optionalField('modelName', model ? String(model.name || model.id) : remembered?.modelId) }) + cappedNote(more);
    },
  };
}

export function jobMetricsTool(services: Services): AgentTool<{ jobId: string; metrics?: string[] }> {
  return {
    name: 'rlstudio_job_metrics',
    needsPlatform: true,
    read: (input) => ({ ...jobIdInput(input), ...optionalField('metrics', optionalTextList(input, 'metrics', 16)) }),
    progress: (input) => `Summarising the metrics of job ${input.jobId}`,
    run: async (input, signal) => {
      const { events, more } = await readJob(services, input.jobId, signal);
      return describeMetricsForAgent(events, input.metrics ? { metrics: input.metrics } : {}) + cappedNote(more);
    },
  };
}
