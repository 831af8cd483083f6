import * as vscode from 'vscode';
import type { Failure } from '../../../platform/client/describeFailure';
import type { Checkpoint, ModelListEntry, PlatformApi } from '../../../platform/client/types';
import { checkpointModelId } from '../../../platform/kit/checkpointIds';
import { formatMetric, formatTimestamp } from '../../../platform/kit/format';
import type { RememberedModel } from '../../../platform/host/rememberedItems';
import { codeText, escapeMarkdown } from '../../../platform/kit/markdownText';
import { tooltipCodeBlock, tooltipMarkdown } from '../../../platform/host/tooltips';

/** A section of the Models view: the models each API serves. */
export type GroupNode = { kind: 'group'; group: PlatformApi };
export type InferenceModelNode = { kind: 'inferenceModel'; model: ModelListEntry };
/** A followed training model; `canarySet` is the eval set (a URI string) of the canary pinned to it, if one is. */
export type TrainingModelNode = { kind: 'trainingModel'; model: RememberedModel; canarySet?: string };
export type CheckpointNode = { kind: 'checkpoint'; model: RememberedModel; checkpoint: Checkpoint };
export type LoadMoreNode = { kind: 'loadMore'; model: RememberedModel; loaded: number };
/**
 * A row that says something instead of content: an empty list, or why a section cannot be read
 * (`failure`, drawn as a warning with the request details in its tooltip).
 */
export type NoticeNode = { kind: 'notice'; parentId: string; text: string; detail?: string; retry?: vscode.Command; icon: string; failure?: Failure };

export const inferenceGroup: GroupNode = Object.freeze({ kind: 'group', group: 'inference' });
export const trainingGroup: GroupNode = Object.freeze({ kind: 'group', group: 'training' });

export type ModelsNode = GroupNode | InferenceModelNode | TrainingModelNode | CheckpointNode | LoadMoreNode | NoticeNode;

/** Labels of a training model: its name when known, else its id. */
export function modelLabel(model: RememberedModel): string {
  return String(model.name || model.id);
}

/** A tooltip lists at most this many metrics of a checkpoint. */
const maxTooltipMetrics = 40;

/** The id to chat with: the inference id, the latest checkpoint of a training model, or one checkpoint. */
export function chatModelId(node: ModelsNode): string | undefined {
  if (node.kind === 'inferenceModel') return node.model.id;
  if (node.kind === 'trainingModel') return checkpointModelId(node.model);
  if (node.kind === 'checkpoint') return checkpointModelId(node.model, node.checkpoint.step);
  return undefined;
}

export function treeItemOf(node: ModelsNode): vscode.TreeItem {
  switch (node.kind) {
    case 'group':
      return groupItem(node);
    case 'inferenceModel':
      return inferenceModelItem(node);
    case 'trainingModel':
      return trainingModelItem(node);
    case 'checkpoint':
      return checkpointItem(node);
    case 'loadMore': {
      const item = new vscode.TreeItem('Load more…', vscode.TreeItemCollapsibleState.None);
      item.id = `loadMore:${node.model.id}`;
      item.description = `${node.loaded} loaded`;
      item.iconPath = new vscode.ThemeIcon('ellipsis');
      item.contextValue = 'loadMore';
      item.command = { command: 'rlStudio.loadMoreCheckpoints', title: 'Load More Checkpoints', arguments: [node] };
      return item;
    }
    case 'notice': {
      const item = new vscode.TreeItem(node.text, vscode.TreeItemCollapsibleState.None);
      item.id = `notice:${node.parentId}`;
      item.iconPath = node.failure ? new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground')) : new vscode.ThemeIcon(node.icon);
      item.tooltip = node.failure ? failureTooltip(node.text, node.failure, node.retry !== undefined) : node.detail;
      item.contextValue = node.failure ? 'notice failure' : 'notice';
      if (node.retry) item.command = node.retry;
      return item;
    }
  }
}

/** What failed in words, then the request that failed, for whoever wants the details. */
export function failureTooltip(text: string, failure: Failure, clickRetries: boolean): vscode.MarkdownString {
  const tooltip = tooltipMarkdown();
  tooltip.appendMarkdown(`${escapeMarkdown(text)}\n\n`);
  if (failure.detail) tooltip.appendMarkdown(`Request: ${tooltipCodeBlock(failure.detail)}\n`);
  const next = failure.retryable ? 'RL Studio tries again by itself as soon as the platform answers.' : '';
  tooltip.appendMarkdown(escapeMarkdown([next, clickRetries ? 'Click to retry now.' : ''].filter(Boolean).join(' ')));
  return tooltip;
}

function groupItem(node: GroupNode): vscode.TreeItem {
  const label = node.group === 'inference' ? 'Inference Models' : 'Training Models';
  const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.Expanded);
  item.id = `group:${node.group}`;
  item.contextValue = `group ${node.group}`;
  item.tooltip =
    node.group === 'inference'
      ? 'Models served by the inference API'
      : 'Training models you created or added by id (the platform has no list of them; RL Studio remembers them per training API address)';
  return item;
}

function inferenceModelItem(node: InferenceModelNode): vscode.TreeItem {
  const { model } = node;
  const item = new vscode.TreeItem(model.id, vscode.TreeItemCollapsibleState.None);
  item.id = `inference:${model.id}`;
  item.description = model.owned_by;
  item.iconPath = new vscode.ThemeIcon('hubot');
  item.contextValue = 'model inference chattable';
  const tooltip = tooltipMarkdown();
  tooltip.appendMarkdown(`**${escapeMarkdown(String(model.id))}**\n\n`);
  tooltip.appendMarkdown(`- Owner: ${escapeMarkdown(String(model.owned_by || 'unknown'))}\n`);
  if (Number.isFinite(model.created)) tooltip.appendMarkdown(`- Created: ${escapeMarkdown(formatTimestamp(model.created))}\n`);
  if (model.root && model.root !== model.id) tooltip.appendMarkdown(`- Root: ${escapeMarkdown(String(model.root))}\n`);
  item.tooltip = tooltip;
  return item;
}

function trainingModelItem(node: TrainingModelNode): vscode.TreeItem {
  const { model } = node;
  const item = new vscode.TreeItem(modelLabel(model), vscode.TreeItemCollapsibleState.Collapsed);
  item.id = `training:${model.id}`;
  const description = model.base_model || (model.name ? undefined : 'added by id');
  item.description = node.canarySet ? [description, 'canary'].filter(Boolean).join(' · ') : description;
  item.iconPath = new vscode.ThemeIcon('beaker');
  const chattable = checkpointModelId(model) !== undefined;
  item.contextValue = `model training removable deletable${chattable ? ' chattable' : ''}${node.canarySet ? ' canary' : ''}`;
  const tooltip = tooltipMarkdown();
  tooltip.appendMarkdown(`**${escapeMarkdown(modelLabel(model))}**\n\n`);
  tooltip.appendMarkdown(`- Id: ${codeText(String(model.id))}\n`);
  if (model.entity || model.project) tooltip.appendMarkdown(`- Entity / project: ${escapeMarkdown(String(model.entity || '?'))} / ${escapeMarkdown(String(model.project || '?'))}\n`);
  if (model.base_model) tooltip.appendMarkdown(`- Base model: ${escapeMarkdown(String(model.base_model))}\n`);
  if (model.run_id) tooltip.appendMarkdown(`- Run: ${codeText(String(model.run_id))}\n`);
  if (node.canarySet) tooltip.appendMarkdown(`- Canary: each new checkpoint is evaluated on ${codeText(vscode.workspace.asRelativePath(vscode.Uri.parse(node.canarySet)))}\n`);
  if (!chattable) tooltip.appendMarkdown('\nAdded by id without its entity/project/name: chat with its checkpoints is unavailable.');
  item.tooltip = tooltip;
  return item;
}

function checkpointItem(node: CheckpointNode): vscode.TreeItem {
  const { checkpoint, model } = node;
  const item = new vscode.TreeItem(`step ${checkpoint.step}`, vscode.TreeItemCollapsibleState.None);
  item.id = `checkpoint:${model.id}:${checkpoint.id}`;
  item.description = summaryOf(checkpoint.metrics);
  item.iconPath = new vscode.ThemeIcon('milestone');
  const servedAs = checkpointModelId(model, checkpoint.step);
  item.contextValue = `checkpoint deletable${servedAs ? ' chattable' : ''}`;
  const tooltip = tooltipMarkdown();
  tooltip.appendMarkdown(`**${escapeMarkdown(modelLabel(model))}** · step ${escapeMarkdown(String(checkpoint.step))}\n\n`);
  if (servedAs) tooltip.appendMarkdown(`Model id: ${codeText(servedAs)}\n\n`);
  const metrics = Object.entries(checkpoint.metrics ?? {}).slice(0, maxTooltipMetrics);
  if (metrics.length) {
    tooltip.appendMarkdown('| Metric | Value |\n|---|---:|\n');
    for (const [name, value] of metrics) tooltip.appendMarkdown(`| ${escapeMarkdown(name)} | ${escapeMarkdown(typeof value === 'number' ? formatMetric(value) : String(value))} |\n`);
  } else {
    tooltip.appendMarkdown('_No metrics (an untrained checkpoint)._');
  }
  item.tooltip = tooltip;
  return item;
}

function summaryOf(metrics: Record<string, number> | undefined): string | undefined {
  if (!metrics) return undefined;
  const parts: string[] = [];
  for (const key of ['loss', 'reward']) {
    const value = metrics[key];
    if (typeof value === 'number') parts.push(`${key} ${formatMetric(value)}`);
  }
  return parts.length ? parts.join(' · ') : undefined;
}
