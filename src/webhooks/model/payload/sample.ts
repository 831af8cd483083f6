import { isRunEvent, type EventType } from './events';
import { plainVariables } from './variables';

/**
 * A sample event: the values the variables take when the preview renders a payload and when hover
 * shows an example. Users may edit any value; the defaults follow the wire reference's examples.
 */
export interface SampleEvent {
  type: EventType;
  /** Plain variables by name (project_name, alias, ...). */
  values: Record<string, string>;
  /** Top-level metadata of the sample artifact version, by key. */
  metadata: Record<string, string>;
}

/** What a user changed in a sample event; merged over the defaults for its event type. */
export interface SampleOverrides {
  values?: Record<string, string>;
  metadata?: Record<string, string>;
  /** Default metadata keys the user removed. */
  removedMetadata?: string[];
}

export function defaultSampleEvent(type: EventType = 'LINK_ARTIFACT'): SampleEvent {
  const run = isRunEvent(type);
  const values: Record<string, string> = {};
  for (const variable of plainVariables()) {
    values[variable.name] = run && variable.scope === 'artifact' ? '' : variable.example;
  }
  values.event_type = type;
  values.alias = type === 'ADD_ARTIFACT_ALIAS' ? 'production' : '';
  values.tag = type === 'ADD_ARTIFACT_TAG' ? 'candidate' : '';
  if (run) values.project_name = 'churn-training';
  const metadata: Record<string, string> = run ? {} : { accuracy: '0.93', framework: 'pytorch', dataset: 'customers-2024-q4' };
  return { type, values, metadata };
}

export function sampleEventWith(type: EventType, overrides: SampleOverrides | undefined): SampleEvent {
  const base = defaultSampleEvent(type);
  const metadata = { ...base.metadata, ...overrides?.metadata };
  for (const key of overrides?.removedMetadata ?? []) if (!overrides?.metadata?.[key]) delete metadata[key];
  return {
    type,
    values: { ...base.values, ...overrides?.values, event_type: overrides?.values?.event_type ?? type },
    metadata,
  };
}
