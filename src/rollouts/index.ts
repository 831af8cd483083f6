import type { Services } from '../platform/host/services';
import type { RegisteredViews } from '../training';
import { RolloutEditorProvider } from './host/rolloutEditorProvider';

/**
 * Entry of dist/rollouts.js, loaded when the first rollout file opens in the inspector:
 * the editor provider, the documents it reads and the pages that show them.
 */
export function startRollouts(services: Services, sidebar: () => RegisteredViews): RolloutEditorProvider {
  return new RolloutEditorProvider(services, sidebar);
}
export { tryReward } from './host/tryReward';
export { summariseRolloutsTool } from './host/tools/fileTools';
export { groupFlagMeanings, groupFlags, type GroupSummary } from './model/groupSummaryShape';
export { summarizeGroup } from './model/groupSummary';
export { rolloutThresholds } from './host/rolloutSettings';
export { joinedBytes, type LinePosition, type SourceLine } from '../platform/kit/sourceLines';
