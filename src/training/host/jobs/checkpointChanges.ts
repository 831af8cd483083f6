import type { Services } from '../../../platform/host/services';
import { isTerminalEvent } from '../../model/jobStatus';
import type { JobChange } from '../../model/jobTracker';

/**
 * The model a followed job's change may have given a new checkpoint, or undefined: each gradient
 * step makes one, and the end of a job may save the last. The model is the one the job was created
 * for here, else the one its record names.
 */
export function modelWithNewCheckpoints(services: Services, change: JobChange): string | undefined {
  if (!change.newEvents.some((event) => event.type === 'gradient_step' || isTerminalEvent(event))) return undefined;
  const named = change.record.job?.model_id;
  return services.remembered.jobs.get(change.id)?.modelId ?? (typeof named === 'string' ? named : undefined);
}
