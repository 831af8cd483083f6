import type { Services } from '../platform/services';
import type { RegisteredViews } from '../sidebar/sidebarFeature';
import { RolloutEditorProvider } from './rolloutEditorProvider';

/**
 * Entry of dist/rolloutInspector.js, loaded when the first rollout file opens in the inspector:
 * the editor provider, the documents it reads and the pages that show them.
 */
export function startRollouts(services: Services, sidebar: () => RegisteredViews): RolloutEditorProvider {
  return new RolloutEditorProvider(services, sidebar);
}
