/**
 * The payload variables the platform substitutes (specification 6.2 and the wire reference), with
 * what each means, where its value comes from and an example rendering.
 */

export type VariableScope =
  /** Available for every event. */
  | 'any'
  /** Describes the triggering artifact version: meaningless for run events. */
  | 'artifact';

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

const catalogue: VariableInfo[] = [
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

export function lookupVariable(name: string): VariableInfo | undefined {
  return byName.get(name);
}

/** Secret names are written like environment variables; payload variables are lower case. */
export function looksLikeSecretName(name: string): boolean {
  return /^[A-Z][A-Z0-9_]*$/.test(name);
}
