import type { Services } from './services';

/**
 * A command argument that only the extension's own tests may pass (a key, a confirmation, a
 * pre-filled form). Any other caller's value is dropped, so the command asks the user as usual.
 */
export function onlyFromTests<T>(services: Pick<Services, 'testMode'>, value: T): T | undefined {
  return services.testMode ? value : undefined;
}
