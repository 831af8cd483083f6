/**
 * What a run planned from a file would send, counted and named as a confirmation says it: chat
 * completions per model (label and id), the judges' requests, `max_tokens`; and which of those
 * models the person could not have chosen without asking (neither a checkpoint of a training model
 * RL Studio remembers nor a model of the catalogue). No `vscode` here.
 */
import { quoted } from '../../platform/kit/confirmationText';
import { plural } from '../../platform/kit/format';
import type { EvalModelRef, EvalParameters } from './evalModel';
import type { NamedScorer } from '../../platform/scoring/scorerSpec';
import type { RunPlan } from './runPlan';

/** A model a run would send requests to, and how many. */
export interface ModelRequests {
  id: string;
  label: string;
  api: 'training' | 'inference';
  requests: number;
  /** Requests of a judge scorer grading answers, not answers. */
  judge?: boolean;
}

export interface RequestSummary {
  requests: number;
  models: ModelRequests[];
}

/** Every request the plan sends: one per answer asked, and one per judge per answer it scores. */
export function summarizeRequests(plan: Pick<RunPlan, 'items' | 'toScore'>, scorers: readonly NamedScorer[]): RequestSummary {
  const byModel = new Map<string, ModelRequests>();
  const count = (key: string, make: () => Omit<ModelRequests, 'requests'>, requests: number): void => {
    if (requests === 0) return;
    const entry = byModel.get(key) ?? { ...make(), requests: 0 };
    entry.requests += requests;
    byModel.set(key, entry);
  };
  for (const item of plan.items) count(`answer ${item.model.id}`, () => modelEntry(item.model), 1);
  for (const { name, spec } of scorers) {
    if (spec.kind !== 'judge') continue;
    const scored = plan.items.length + plan.toScore.filter((entry) => entry.scorers.includes(name)).length;
    count(`judge ${spec.model}`, () => ({ id: spec.model, label: `judge ${name}`, api: 'inference', judge: true }), scored);
  }
  const models = [...byModel.values()];
  return { requests: models.reduce((sum, model) => sum + model.requests, 0), models };
}

const modelEntry = (model: EvalModelRef): Omit<ModelRequests, 'requests'> => ({ id: model.id, label: model.label, api: model.api });

/** What the person knows of: the checkpoint ids of remembered training models (by step) and pinned ids, and the catalogue. */
export interface KnownModels {
  /** Whether a training-API id is a checkpoint of a training model RL Studio remembers, or a pinned one. */
  isKnownCheckpoint(id: string): boolean;
  /** Catalogue ids; undefined when the catalogue could not be listed. */
  catalogue: ReadonlySet<string> | undefined;
}

/** The models of a summary the person could not have chosen without asking. */
export function unknownModels(summary: RequestSummary, known: KnownModels): ModelRequests[] {
  return summary.models.filter((model) => (model.api === 'training' ? !known.isKnownCheckpoint(model.id) : !known.catalogue?.has(model.id)));
}

/** The lines of a confirmation naming every request: how many, to which model (label and id, quoted), with which token limit. */
export function describeRequests(summary: RequestSummary, parameters: EvalParameters, unknown: readonly ModelRequests[]): string[] {
  const lines = [
    `${plural(summary.requests, 'chat completion')}, each with max_tokens ${parameters.maxTokens.toLocaleString('en-US')} (temperature ${parameters.temperature}):`,
    ...summary.models.map(
      (model) => `• ${plural(model.requests, 'request')} to ${quoted(model.label, 100)}: ${quoted(model.id, 500)} (${model.api} API${model.judge ? ', a judge scoring the answers' : ''})`,
    ),
  ];
  if (unknown.length > 0)
    lines.push(
      `Not a checkpoint of your training models nor a model of the catalogue, named only by the file: ${unknown.map((model) => quoted(model.id, 500)).join(', ')}. Check that you mean to send to ${unknown.length === 1 ? 'it' : 'them'}.`,
    );
  return lines;
}
