/**
 * The words of the Local Runs view's nodes: descriptions and tooltips. Everything that came from
 * the disk (folder names, model.json's fields, paths) is quoted as foreign text; model.json gives
 * only the fields modelFile.ts keeps, so nothing else of it can reach a node.
 */
import { quoted } from '../../platform/kit/confirmationText';
import { plural } from '../../platform/kit/format';
import { modelSteps, platformName, type LocalModel, type LocalSplit } from './discovery';

/** Splits named with their step counts in a model's description, at most. */
const describedSplits = 3;

/** `train 12, val 1 · latest 11 · Qwen/Qwen2.5-7B-Instruct · followed`: what a person scans the tree for. */
export function modelDescription(model: LocalModel, followedId: string | undefined): string {
  const { steps, latest } = modelSteps(model);
  const counts =
    steps === 0
      ? 'no steps logged'
      : model.splits.length <= describedSplits
        ? model.splits
            .filter((split) => split.stepCount > 0)
            .map((split) => `${split.name} ${split.stepCount}${split.moreSteps ? '+' : ''}`)
            .join(', ')
        : plural(steps, 'step');
  return [counts, latest === undefined ? '' : `latest ${latest}`, model.facts?.base_model ?? '', followedId ? 'followed' : ''].filter(Boolean).join(' · ');
}

export function modelTooltip(model: LocalModel, followedId: string | undefined): string {
  const facts = model.facts;
  return [
    `Model ${quoted(platformName(model))}${facts?.name && facts.name !== model.folderName ? ` (folder ${quoted(model.folderName)})` : ''}`,
    `Project: ${quoted(facts?.project ?? model.project)}`,
    facts?.entity ? `Entity: ${quoted(facts.entity)}` : '',
    facts?.base_model ? `Base model: ${quoted(facts.base_model)}` : '',
    facts?.id ? `Platform id: ${quoted(facts.id)}` : '',
    followedId ? `Followed on the platform as model ${quoted(followedId)}` : '',
    model.note ?? '',
    `Folder: ${quoted(model.path)}`,
  ]
    .filter(Boolean)
    .join('\n');
}

export function splitDescription(split: LocalSplit): string {
  if (split.stepCount === 0) return 'no steps logged';
  const range = split.firstStep === split.latestStep ? `step ${split.latestStep}` : `steps ${split.firstStep}–${split.latestStep}`;
  return `${plural(split.stepCount, 'step')}${split.moreSteps ? '+' : ''} · ${range}`;
}

export function splitTooltip(model: LocalModel, split: LocalSplit): string {
  return `Split ${quoted(split.name)} of ${quoted(model.folderName)}: ${splitDescription(split)}\nFolder: ${quoted(split.path)}`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
