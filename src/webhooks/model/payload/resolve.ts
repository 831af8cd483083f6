import type { WebhookSecretNames } from './context';
import { accessTokenName, lookupVariable, looksLikeSecretName, metadataPrefix, type VariableInfo } from './variables';

/** What the name inside one `${…}` refers to. */
export type Resolution =
  | { kind: 'empty' }
  | { kind: 'variable'; info: VariableInfo }
  /** `${artifact_metadata.KEY}`: any top-level key is fine, the set is open. */
  | { kind: 'metadata'; key: string }
  /** `${artifact_metadata}` or `${artifact_metadata.}`. */
  | { kind: 'metadata-without-key' }
  /** `${artifact_metadata.a.b}`: only top-level keys exist. */
  | { kind: 'nested-metadata'; key: string; topLevelKey: string }
  | { kind: 'access-token' }
  | { kind: 'secret'; name: string }
  | { kind: 'unknown'; name: string };

export function resolveName(name: string, webhook: WebhookSecretNames | undefined): Resolution {
  if (name.length === 0) return { kind: 'empty' };
  const variable = lookupVariable(name);
  if (variable) return { kind: 'variable', info: variable };
  if (name === metadataPrefix || name === `${metadataPrefix}.`) return { kind: 'metadata-without-key' };
  if (name.startsWith(`${metadataPrefix}.`)) {
    const key = name.slice(metadataPrefix.length + 1);
    const dot = key.indexOf('.');
    if (dot < 0) return { kind: 'metadata', key };
    return { kind: 'nested-metadata', key, topLevelKey: key.slice(0, dot) };
  }
  if (name === accessTokenName) return { kind: 'access-token' };
  if (webhook?.secretName === name || looksLikeSecretName(name)) return { kind: 'secret', name };
  return { kind: 'unknown', name };
}

/** True when the reference describes an artifact version (blank for run events). */
export function isArtifactResolution(resolution: Resolution): boolean {
  switch (resolution.kind) {
    case 'variable':
      return resolution.info.scope === 'artifact';
    case 'metadata':
    case 'metadata-without-key':
    case 'nested-metadata':
      return true;
    default:
      return false;
  }
}
