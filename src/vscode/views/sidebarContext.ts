import { setContext } from '../contextKeys';

/** Context keys of the sidebar's own welcome views (see .manifest/sidebar.json). */
export const SidebarKeys = {
  /** The inference model list could not be read: server down, wrong address, proxy error. */
  unreachable: 'rlStudio.unreachable',
  /** The platform answered 401 to the stored key. */
  keyRejected: 'rlStudio.keyRejected',
  modelsEmpty: 'rlStudio.modelsEmpty',
  jobsEmpty: 'rlStudio.jobsEmpty',
} as const;

const current = new Map<string, boolean>();

/** Sets a boolean context key, skipping the command when the value did not change. */
export function setFlag(key: string, value: boolean): void {
  if (current.get(key) === value) return;
  current.set(key, value);
  setContext(key, value);
}
