/**
 * Which API serves a model id in the chat, and its short label. Checkpoint model ids are built and
 * read in src/platform/kit/checkpointIds.ts.
 */
import type { PlatformApi } from '../client/types';
import { isCheckpointModelId, parseCheckpointModelId } from './checkpointIds';

export function apiForModel(modelId: string): PlatformApi {
  return isCheckpointModelId(modelId) ? 'training' : 'inference';
}

/** A short label for headers and tabs: `policy-001 · step 12`, or the catalogue id. */
export function shortModelLabel(modelId: string): string {
  const ref = parseCheckpointModelId(modelId);
  if (!ref) return modelId || 'no model';
  return ref.step === undefined ? `${ref.name} · latest` : `${ref.name} · step ${ref.step}`;
}
