import { setContext } from '../platform/contextKeys';

/** Context keys of the sidebar's own welcome views (package.json `viewsWelcome`). */
export const SidebarKeys = {
  /**
   * The model catalogue cannot be read because the inference API does not answer (describeFailure's
   * 'unreachable' or 'timeout') and the view has nothing else to list: its welcome offers Retry,
   * Configure Endpoints and Show Log. An API that answers with errors (429, 5xx) is never this: the
   * catalogue shows one warning row saying what failed instead.
   */
  unreachable: 'rlStudio.unreachable',
  /** The platform answered 401 to the stored key. */
  keyRejected: 'rlStudio.keyRejected',
  modelsEmpty: 'rlStudio.modelsEmpty',
  jobsEmpty: 'rlStudio.jobsEmpty',
  /** At least one training model is listed: the Training Jobs welcome stops suggesting to create one. */
  hasTrainingModels: 'rlStudio.hasTrainingModels',
} as const;

const current = new Map<string, boolean>();

/** Sets a boolean context key, skipping the command when the value did not change. */
export function setFlag(key: string, value: boolean): void {
  if (current.get(key) === value) return;
  current.set(key, value);
  setContext(key, value);
}
