import type { PlatformApi } from '../client/types';
import type { Settings } from './settings';

/** What readiness reads of the services: typed by shape, so Node tests can hand it stand-ins. */
export interface ReadinessSources {
  readonly settings: { readonly current: Pick<Settings, 'trainingApiUrl' | 'inferenceApiUrl'> };
  readonly credentials: { isSignedIn(): Promise<boolean> };
}

/** Whether RL Studio can call the platform now, and if not, which of the two steps is missing. */
export interface Readiness {
  /** Every API asked for has an address. */
  readonly endpoints: boolean;
  readonly signedIn: boolean;
  /** Both: a request can be sent. */
  readonly ready: boolean;
}

const bothApis: readonly PlatformApi[] = ['training', 'inference'];

/**
 * The one definition of "ready": the addresses of the APIs the work needs are set, and an API key
 * is stored. Each caller words its own advice from which part is missing.
 */
export async function platformReadiness(services: ReadinessSources, apis: readonly PlatformApi[] = bothApis): Promise<Readiness> {
  const current = services.settings.current;
  const endpoints = apis.every((api) => (api === 'training' ? current.trainingApiUrl : current.inferenceApiUrl) !== '');
  const signedIn = await services.credentials.isSignedIn();
  return { endpoints, signedIn, ready: endpoints && signedIn };
}
