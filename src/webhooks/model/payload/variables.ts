/**
 * The payload variables the platform substitutes (specification 6.2 and the wire reference), with
 * what each means, where its value comes from and an example rendering.
 */

export type VariableScope =
  /** Available for every event. */
  | 'any'
  /** Describes the triggering artifact version: meaningless for run events. */
  | 'artifact'
  /**
   * Filled by RL Studio's own alert rules (`.rlstudio/alerts.json`) when one sends this payload;
   * the platform's automations leave them as written.
   */
  | 'alert';

export interface VariableInfo {
  name: string;
  /** A few words shown beside the name in the completion list, where a whole sentence does not fit. */
  summary: string;
  meaning: string;
  /** Where the platform takes the value from, in the user's terms. */
  source: string;
  example: string;
  scope: VariableScope;
}

export const metadataPrefix = 'artifact_metadata';
export const accessTokenName = 'ACCESS_TOKEN';

const platformCatalogue: VariableInfo[] = [
  {
    name: 'project_name',
    summary: 'project of the change',
    meaning: 'Project that owns the change that triggered the action.',
    source: 'The triggering event; for registry events, the registry.',
    example: 'model-registry',
    scope: 'any',
  },
  {
    name: 'entity_name',
    summary: 'entity or team of the change',
    meaning: 'Entity or team that owns the change.',
    source: 'The triggering event.',
    example: 'acme',
    scope: 'any',
  },
  {
    name: 'event_type',
    summary: 'type of the triggering event',
    meaning: 'Type of the triggering event, such as LINK_ARTIFACT or ADD_ARTIFACT_ALIAS.',
    source: "The automation's event.",
    example: 'LINK_ARTIFACT',
    scope: 'any',
  },
  {
    name: 'event_author',
    summary: 'user who triggered the action',
    meaning: 'User that triggered the action.',
    source: 'The user whose change fired the event.',
    example: 'jane-doe',
    scope: 'any',
  },
  {
    name: 'artifact_collection_name',
    summary: 'collection the version is linked to',
    meaning: 'Artifact collection to which the version is linked.',
    source: 'The triggering artifact version.',
    example: 'churn-model',
    scope: 'artifact',
  },
  {
    name: 'artifact_version',
    summary: 'artifact version, as an object reference',
    meaning: 'The triggering artifact version, as an artifact object reference.',
    source: 'The triggering artifact version.',
    example: 'wandb-artifact://_id/QXJ0aWZhY3Q6NTE3ODg5ODg3',
    scope: 'artifact',
  },
  {
    name: 'artifact_version_string',
    summary: 'artifact version, as entity/project:alias',
    meaning: 'String form of the artifact version: <entity>/<project>:<alias>, or <entity>/<project>/<collection>:<alias> for registry events.',
    source: 'The triggering artifact version.',
    example: 'acme/model-registry/churn-model:production',
    scope: 'artifact',
  },
  {
    name: 'alias',
    summary: 'alias that was added',
    meaning: 'The alias that was added (alias-added event); blank for other events.',
    source: 'The alias-added event.',
    example: 'production',
    scope: 'artifact',
  },
  {
    name: 'tag',
    summary: 'tag that was added',
    meaning: 'The tag that was added (tag-added event); blank for other events.',
    source: 'The tag-added event.',
    example: 'candidate',
    scope: 'artifact',
  },
];

/** What an alert rule fills in: see src/alerts/model/alertVariables.ts, which gives their values. */
const alertCatalogue: VariableInfo[] = [
  {
    name: 'alert_rule',
    summary: 'alert: name of the rule that fired',
    meaning: 'Name of the alert rule that fired, as written in `.rlstudio/alerts.json`.',
    source: 'The alert rule (RL Studio alert rules only).',
    example: 'Reward collapsed',
    scope: 'alert',
  },
  {
    name: 'alert_condition',
    summary: "alert: the rule's condition in words",
    meaning: "The rule's condition in words, such as `reward below 0.2 for 3 steps` or `a job failed`.",
    source: 'The alert rule (RL Studio alert rules only).',
    example: 'reward below 0.2 for 3 steps',
    scope: 'alert',
  },
  {
    name: 'alert_message',
    summary: 'alert: what happened, in one line',
    meaning: 'What happened, in one line: the same text as the notification, without the rule name.',
    source: 'The firing (RL Studio alert rules only).',
    example: 'reward was 0.12 at step 340 of training job "run-7"',
    scope: 'alert',
  },
  {
    name: 'job_id',
    summary: 'alert: id of the training job',
    meaning: 'Id of the training job the alert is about; blank for a canary drop.',
    source: 'The followed training job (RL Studio alert rules only).',
    example: 'job-2b1f',
    scope: 'alert',
  },
  {
    name: 'job_name',
    summary: 'alert: name of the training job',
    meaning: 'The training job as the Training Jobs view names it (its file, or its id); blank for a canary drop.',
    source: 'The followed training job (RL Studio alert rules only).',
    example: 'run-7.jsonl → agent-001',
    scope: 'alert',
  },
  {
    name: 'model_id',
    summary: 'alert: id of the model',
    meaning: 'Id of the model the job trains, or whose checkpoint the canary evaluated; blank when unknown.',
    source: 'The training job or the canary (RL Studio alert rules only).',
    example: 'agent-001',
    scope: 'alert',
  },
  {
    name: 'step',
    summary: 'alert: the step it happened at',
    meaning: "The job step of a metric or a job outcome, or the checkpoint's model step for a canary drop; blank when unknown.",
    source: 'The training job or the canary (RL Studio alert rules only).',
    example: '340',
    scope: 'alert',
  },
  {
    name: 'metric_name',
    summary: 'alert: the metric that crossed',
    meaning: 'The metric a metric rule watches, or `canary score` for a canary drop; blank for job outcomes.',
    source: 'The alert rule (RL Studio alert rules only).',
    example: 'reward',
    scope: 'alert',
  },
  {
    name: 'metric_value',
    summary: 'alert: the value of the metric',
    meaning: 'The value that fired the rule (the canary score for a canary drop), as a decimal number; blank for job outcomes.',
    source: 'The training job or the canary (RL Studio alert rules only).',
    example: '0.12',
    scope: 'alert',
  },
];
const catalogue: VariableInfo[] = [...platformCatalogue, ...alertCatalogue];

const byName = new Map(catalogue.map((info) => [info.name, info]));

export const metadataVariable: VariableInfo = {
  name: `${metadataPrefix}.<KEY>`,
  summary: 'a metadata value of the artifact version',
  meaning: 'Value of the top-level metadata key <KEY> of the triggering artifact version. Only top-level keys are available; the set of keys depends on the artifact.',
  source: 'The metadata of the triggering artifact version.',
  example: '0.93',
  scope: 'artifact',
};

export const accessTokenVariable: VariableInfo = {
  name: accessTokenName,
  summary: "secret: the webhook's access token",
  meaning: "The webhook's access token, when the webhook has one. The same token is sent as `Authorization: Bearer <token>`.",
  source: "The team secret configured as the webhook's access token.",
  example: '********',
  scope: 'any',
};

export function secretVariable(name: string): VariableInfo {
  return {
    name,
    summary: "secret: the webhook's secret",
    meaning: `Value of the webhook's secret \`${name}\`.`,
    source: "The team secret configured as the webhook's secret; it also keys the X-Service-Signature header.",
    example: '********',
    scope: 'any',
  };
}

/** Every plain (non-metadata, non-secret) variable, in presentation order. */
export function plainVariables(): readonly VariableInfo[] {
  return catalogue;
}

/** The variables RL Studio's alert rules fill in (scope `alert`). */
export function alertVariables(): readonly VariableInfo[] {
  return alertCatalogue;
}

export function lookupVariable(name: string): VariableInfo | undefined {
  return byName.get(name);
}

/** Secret names are written like environment variables; payload variables are lower case. */
export function looksLikeSecretName(name: string): boolean {
  return /^[A-Z][A-Z0-9_]*$/.test(name);
}
