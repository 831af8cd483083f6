/**
 * The rollout inspector is one editor registered twice, because a custom editor's priority holds
 * for all of its file patterns: as the default editor of files named by the convention
 * (`*.trajectories.jsonl`, `*.trajectories.json`), and as an "Open With…" choice for any other
 * `.jsonl` or `.json` file.
 */
export const rolloutsViewType = 'rlStudio.rollouts';
export const rolloutsOptionViewType = 'rlStudio.rollouts.openWith';
export const rolloutsViewTypes = [rolloutsViewType, rolloutsOptionViewType] as const;
