import type { PlatformApi } from '../../platform/client/types';
import { checkpointModelId } from '../../platform/kit/checkpointIds';
import { apiForModel, shortModelLabel } from '../../platform/kit/modelIds';

/** One entry of the model picker. */
export interface ModelOption {
  id: string;
  label: string;
  /** The picker's group heading. */
  group: string;
  api: PlatformApi;
}

/** What the picker shows, with the reasons a source could not be read. */
export interface ModelCatalogue {
  options: ModelOption[];
  /** One line per source that failed, e.g. "Inference models: sign in to list them". */
  problems: string[];
}

export interface TrainedModelSource {
  entity: string;
  project: string;
  name: string;
  /** Steps of its checkpoints that are known, any order. */
  steps: number[];
}

export const pinnedGroup = 'Pinned';
export const catalogueGroup = 'Inference models';
export const otherGroup = 'Other';

/**
 * Pinned models first (a checkpoint promoted after an evaluation, newest pin first), then the
 * catalogue models (in the server's order), then each remembered training model: its latest
 * checkpoint, then its checkpoints newest first. Duplicates keep their first place.
 */
export function buildModelOptions(catalogueIds: string[], trained: TrainedModelSource[], pinnedIds: readonly string[] = []): ModelOption[] {
  const options: ModelOption[] = [];
  const seen = new Set<string>();
  const add = (option: ModelOption): void => {
    if (seen.has(option.id)) return;
    seen.add(option.id);
    options.push(option);
  };
  for (const id of pinnedIds) add({ id, label: shortModelLabel(id), group: pinnedGroup, api: apiForModel(id) });
  for (const id of catalogueIds) add({ id, label: id, group: catalogueGroup, api: 'inference' });
  for (const model of trained) {
    const latest = checkpointModelId(model);
    // A model without all three names has no checkpoint model id: there is nothing to chat with.
    if (latest === undefined) continue;
    const group = `${model.entity}/${model.project}/${model.name}`;
    add({ id: latest, label: `${model.name} (latest)`, group, api: 'training' });
    for (const step of [...new Set(model.steps)].sort((a, b) => b - a)) {
      add({ id: checkpointModelId(model, step)!, label: `${model.name} step ${step}`, group, api: 'training' });
    }
  }
  return options;
}

/**
 * The options to show when some ids must be selectable even though no source listed them (a
 * checkpoint opened from the Models view, a model an old conversation used): each missing id is
 * added under "Other", so the picker always shows exactly the model that will answer.
 */
export function withSelectedModels(options: ModelOption[], selected: string[]): ModelOption[] {
  const known = new Set(options.map((option) => option.id));
  const extra: ModelOption[] = [];
  for (const id of selected) {
    if (!id || known.has(id)) continue;
    known.add(id);
    extra.push({ id, label: shortModelLabel(id) === id ? id : `${shortModelLabel(id)} — ${id}`, group: otherGroup, api: apiForModel(id) });
  }
  return extra.length === 0 ? options : [...options, ...extra];
}

/** Options grouped for rendering, groups in first-appearance order. */
export function groupOptions(options: ModelOption[]): { group: string; options: ModelOption[] }[] {
  const groups = new Map<string, ModelOption[]>();
  for (const option of options) {
    const list = groups.get(option.group) ?? [];
    list.push(option);
    groups.set(option.group, list);
  }
  return [...groups].map(([group, list]) => ({ group, options: list }));
}
