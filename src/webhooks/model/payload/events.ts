/**
 * Automation events (wire reference, "Webhooks"): which exist, which need a regular expression,
 * and which are run events (for which artifact variables make no sense).
 */

export const artifactEventTypes = ['LINK_ARTIFACT', 'ADD_ARTIFACT_ALIAS', 'CREATE_ARTIFACT', 'ADD_ARTIFACT_TAG'] as const;
export const runEventTypes = ['RUN_STATE', 'RUN_METRIC_THRESHOLD', 'RUN_METRIC_CHANGE', 'RUN_METRIC_ZSCORE'] as const;

export type ArtifactEventType = (typeof artifactEventTypes)[number];
export type RunEventType = (typeof runEventTypes)[number];
export type EventType = ArtifactEventType | RunEventType;

export const eventTypes: readonly EventType[] = [...artifactEventTypes, ...runEventTypes];

export interface EventDescription {
  type: EventType;
  category: 'artifact' | 'run';
  title: string;
  /** The event option that must hold a regular expression, when the event needs one. */
  regexOption?: 'aliasRegex' | 'tagRegex';
}

const descriptions: Record<EventType, EventDescription> = {
  LINK_ARTIFACT: { type: 'LINK_ARTIFACT', category: 'artifact', title: 'An artifact version is linked to a collection' },
  ADD_ARTIFACT_ALIAS: { type: 'ADD_ARTIFACT_ALIAS', category: 'artifact', title: 'An alias is added to an artifact version', regexOption: 'aliasRegex' },
  CREATE_ARTIFACT: { type: 'CREATE_ARTIFACT', category: 'artifact', title: 'An artifact version is created' },
  ADD_ARTIFACT_TAG: { type: 'ADD_ARTIFACT_TAG', category: 'artifact', title: 'A tag is added to an artifact version', regexOption: 'tagRegex' },
  RUN_STATE: { type: 'RUN_STATE', category: 'run', title: 'A run changes state (Running, Finished, Failed)' },
  RUN_METRIC_THRESHOLD: { type: 'RUN_METRIC_THRESHOLD', category: 'run', title: 'A run metric crosses a threshold' },
  RUN_METRIC_CHANGE: { type: 'RUN_METRIC_CHANGE', category: 'run', title: 'A run metric changes by an amount' },
  RUN_METRIC_ZSCORE: { type: 'RUN_METRIC_ZSCORE', category: 'run', title: 'A run metric moves away from its mean (z-score)' },
};

export function isEventType(value: unknown): value is EventType {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(descriptions, value);
}

export function describeEvent(type: EventType): EventDescription {
  return descriptions[type];
}

export function isRunEvent(type: EventType): boolean {
  return descriptions[type].category === 'run';
}
