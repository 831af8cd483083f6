import * as vscode from 'vscode';
import type { ModelListEntry } from '../../api/types';
import { isConfigured } from '../settings';
import type { Services } from '../services';
import { classifyFailure, messageOf } from '../views/failures';
import { setFlag, SidebarKeys } from '../views/sidebarContext';
import { CheckpointPages } from './checkpointPages';
import { inferenceGroup, trainingGroup, treeItemOf, type LoadMoreNode, type ModelsNode, type NoticeNode, type TrainingModelNode } from './modelNodes';

export interface ModelsViewState {
  unreachable: boolean;
  rejected: boolean;
  empty: boolean;
  /** The one message shown at the top of the view, when there is one. */
  message?: string;
}

type InferenceState = { state: 'unloaded' } | { state: 'loaded'; models: ModelListEntry[] } | { state: 'failed' };

/**
 * The Models view: the inference catalogue and the training models this user created or added,
 * each expanding to its checkpoints, newest first, a page at a time. Signed-out, rejected-key,
 * unreachable and empty states leave the tree empty so a welcome view explains them once.
 */
export class ModelsTreeProvider implements vscode.TreeDataProvider<ModelsNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<ModelsNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  readonly checkpoints: CheckpointPages;
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly trainingNodes = new Map<string, TrainingModelNode>();
  private inference: InferenceState = { state: 'unloaded' };
  private inferenceLoad: Promise<InferenceState> | undefined;
  private view: vscode.TreeView<ModelsNode> | undefined;
  private generation = 0;
  private states: ModelsViewState = { unreachable: false, rejected: false, empty: false };

  constructor(private readonly services: Services) {
    this.checkpoints = new CheckpointPages(services);
    this.subscriptions.push(
      services.onDidChangeConnection(() => this.refresh()),
      services.remembered.models.onDidChange(() => this.changed.fire(undefined)),
    );
  }

  attach(view: vscode.TreeView<ModelsNode>): void {
    this.view = view;
  }

  /** Reads everything again: the catalogue and every expanded model's checkpoints. */
  refresh(): void {
    this.generation++;
    this.inference = { state: 'unloaded' };
    this.inferenceLoad = undefined;
    this.checkpoints.resetAll();
    this.changed.fire(undefined);
  }

  /** Re-reads one training model's checkpoints (after a deletion, or a retry). */
  refreshModel(modelId: string): void {
    this.checkpoints.forget(modelId);
    const node = this.trainingNodes.get(modelId);
    this.changed.fire(node);
  }

  /** Redraws one training model's children with what is loaded. */
  redrawModel(modelId: string): void {
    this.changed.fire(this.trainingNodes.get(modelId));
  }

  /** The whole-view state the welcome views show (also read by the extension's tests). */
  get viewState(): ModelsViewState {
    return { ...this.states };
  }

  trainingNode(modelId: string): TrainingModelNode | undefined {
    return this.trainingNodes.get(modelId);
  }

  getTreeItem(node: ModelsNode): vscode.TreeItem {
    return treeItemOf(node);
  }

  getParent(node: ModelsNode): ModelsNode | undefined {
    if (node.kind === 'inferenceModel') return inferenceGroup;
    if (node.kind === 'trainingModel') return trainingGroup;
    if (node.kind === 'checkpoint' || node.kind === 'loadMore') return this.trainingNodes.get(node.model.id);
    return undefined;
  }

  async getChildren(node?: ModelsNode): Promise<ModelsNode[]> {
    if (!node) return this.rootChildren();
    if (node.kind === 'group') return node.group === 'inference' ? this.inferenceChildren() : this.trainingChildren();
    if (node.kind === 'trainingModel') return this.checkpointChildren(node);
    return [];
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.checkpoints.resetAll();
    this.changed.dispose();
  }

  private async rootChildren(): Promise<ModelsNode[]> {
    const settings = this.services.settings.current;
    if (!isConfigured(settings) || !(await this.services.credentials.isSignedIn())) {
      this.setStates({ unreachable: false, rejected: false, empty: false });
      return [];
    }
    let hasInference = false;
    if (settings.inferenceApiUrl) {
      const state = await this.loadInference();
      if (state.state === 'failed') return [];
      hasInference = state.state === 'loaded' && state.models.length > 0;
    }
    this.syncTrainingNodes();
    const hasTraining = settings.trainingApiUrl !== '' && this.trainingNodes.size > 0;
    const empty = !hasInference && !hasTraining;
    this.setStates({ unreachable: false, rejected: false, empty });
    if (empty) return [];
    const groups: ModelsNode[] = [];
    if (hasInference) groups.push(inferenceGroup);
    if (settings.trainingApiUrl) groups.push(trainingGroup);
    return groups;
  }

  private async inferenceChildren(): Promise<ModelsNode[]> {
    const state = await this.loadInference();
    if (state.state !== 'loaded') return [];
    return state.models.map((model) => ({ kind: 'inferenceModel', model }));
  }

  private trainingChildren(): ModelsNode[] {
    this.syncTrainingNodes();
    if (this.trainingNodes.size > 0) return [...this.trainingNodes.values()];
    return [
      { kind: 'notice', parentId: 'training:create', text: 'Create a training model…', icon: 'add', retry: { command: 'rlStudio.createModel', title: 'Create Model' } },
      { kind: 'notice', parentId: 'training:add', text: 'Add a training model by id…', icon: 'link', retry: { command: 'rlStudio.addModel', title: 'Add Model by ID' } },
    ];
  }

  private async checkpointChildren(node: TrainingModelNode): Promise<ModelsNode[]> {
    const pager = this.checkpoints.of(node.model.id);
    try {
      const items = pager.started ? pager.items : await this.withProgress(pager.first());
      const children: ModelsNode[] = items.map((checkpoint) => ({ kind: 'checkpoint', model: node.model, checkpoint }));
      if (pager.hasMore) children.push({ kind: 'loadMore', model: node.model, loaded: items.length } satisfies LoadMoreNode);
      if (children.length === 0) children.push(this.notice(node, 'No checkpoints', 'info'));
      return children;
    } catch (error) {
      const kind = classifyFailure(this.services, error);
      if (kind === 'rejected' || kind === 'signed-out') {
        // A whole-view state: the welcome view says it once.
        this.refresh();
        return [];
      }
      this.checkpoints.forget(node.model.id);
      const text = kind === 'not-found' ? 'This model no longer exists on the training API' : `Could not load checkpoints: ${messageOf(this.services, error)}`;
      return [this.notice(node, text, 'warning', { command: 'rlStudio.refreshModel', title: 'Retry', arguments: [node] })];
    }
  }

  private notice(parent: TrainingModelNode, text: string, icon: string, retry?: vscode.Command): NoticeNode {
    return { kind: 'notice', parentId: parent.model.id, text, detail: retry ? `${text}\nClick to retry.` : text, retry, icon };
  }

  /** Loads the catalogue once per refresh; concurrent callers share the request. */
  private loadInference(): Promise<InferenceState> {
    if (this.inference.state !== 'unloaded') return Promise.resolve(this.inference);
    if (this.inferenceLoad) return this.inferenceLoad;
    const generation = this.generation;
    const load = (async (): Promise<InferenceState> => {
      try {
        const client = await this.services.client();
        const list = await client.inference.listModels();
        return { state: 'loaded', models: [...list.data].sort((a, b) => a.id.localeCompare(b.id)) };
      } catch (error) {
        this.showFailure(error);
        return { state: 'failed' };
      }
    })();
    this.inferenceLoad = this.withProgress(load).then((state) => {
      if (generation === this.generation) {
        this.inference = state;
        this.inferenceLoad = undefined;
      }
      return state;
    });
    return this.inferenceLoad;
  }

  private showFailure(error: unknown): void {
    const kind = classifyFailure(this.services, error);
    const message = messageOf(this.services, error);
    this.services.log.warn(`Models view: ${message}`);
    if (kind === 'rejected') {
      this.setStates({ unreachable: false, rejected: true, empty: false });
      return;
    }
    if (kind === 'signed-out') {
      this.setStates({ unreachable: false, rejected: false, empty: false });
      return;
    }
    this.setStates({ unreachable: true, rejected: false, empty: false, message });
  }

  private setStates(states: ModelsViewState): void {
    this.states = states;
    setFlag(SidebarKeys.unreachable, states.unreachable);
    setFlag(SidebarKeys.keyRejected, states.rejected);
    setFlag(SidebarKeys.modelsEmpty, states.empty);
    if (this.view) this.view.message = states.message;
  }

  private syncTrainingNodes(): void {
    const models = this.services.remembered.models.list();
    const ids = new Set(models.map((model) => model.id));
    for (const id of [...this.trainingNodes.keys()]) if (!ids.has(id)) this.trainingNodes.delete(id);
    for (const model of models) {
      const existing = this.trainingNodes.get(model.id);
      // Keep the node object (tree refreshes address it) but take the latest remembered fields.
      if (existing) existing.model = model;
      else this.trainingNodes.set(model.id, { kind: 'trainingModel', model });
    }
  }

  private withProgress<T>(work: Promise<T>): Promise<T> {
    void vscode.window.withProgress({ location: { viewId: 'rlStudio.models' } }, () => work.catch(() => undefined));
    return work;
  }
}
