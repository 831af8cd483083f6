import * as vscode from 'vscode';
import { pinnedCanarySets } from '../../../platform/host/rememberedItems';
import { isConnectionFailure, withNextStep, type Failure } from '../../../platform/client/describeFailure';
import type { ModelListEntry } from '../../../platform/client/types';
import type { HealthChange } from '../../../platform/health/health';
import { ListingWaits } from '../../model/listingWaits';
import { isConfigured } from '../../../platform/host/settings';
import type { Services } from '../../../platform/host/services';
import { ContextKeys, setContext } from '../../../platform/host/contextKeys';
import { CheckpointPages } from './checkpointPages';
import { inferenceGroup, trainingGroup, treeItemOf, type LoadMoreNode, type ModelsNode, type NoticeNode, type TrainingModelNode } from './modelNodes';

export interface ModelsViewState {
  /** The catalogue cannot be read because the inference API does not answer, and nothing else is listed. */
  unreachable: boolean;
  rejected: boolean;
  empty: boolean;
  /** Why the catalogue cannot be shown, while it cannot (its section says so, or the welcome view). */
  catalogueFailure?: Failure;
  /** Why the training API cannot be read, while it cannot (the Training Models section says so). */
  trainingFailure?: Failure;
}

type CatalogueState = { state: 'unloaded' } | { state: 'loaded'; models: ModelListEntry[] } | { state: 'failed'; failure: Failure };

/** While a section shows a failure, its "retrying in N s" is redrawn this often. */
const countdownMs = 2000;

/**
 * The Models view: the inference catalogue and the training models this user created or added,
 * each expanding to its checkpoints, newest first, a page at a time. The two sections fail and
 * recover independently: a catalogue that cannot be read shows one warning row in its section
 * while the remembered training models stay listed, and the other way round. Only when the view
 * would list nothing does a welcome view explain (signed out, key rejected, unreachable, empty).
 * Failures and recoveries come from the shared health state, so the view changes as soon as any
 * call or check sees the platform go or come back, without a click.
 */
export class ModelsTreeProvider implements vscode.TreeDataProvider<ModelsNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<ModelsNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  readonly checkpoints: CheckpointPages;
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly trainingNodes = new Map<string, TrainingModelNode>();
  private readonly listing = new ListingWaits<string, TrainingModelNode>();
  /** Models whose checkpoints could not be read: read again when the training API answers again. */
  private readonly failedModels = new Set<string>();
  private catalogue: CatalogueState = { state: 'unloaded' };
  private catalogueLoad: Promise<CatalogueState> | undefined;
  /** The warning rows of the two sections: kept as the same objects so a redraw can address them. */
  private readonly warnings = {
    catalogue: { kind: 'notice', parentId: 'catalogue:failure', text: '', icon: 'warning', retry: { command: 'rlStudio.refreshModels', title: 'Retry' } } as NoticeNode,
    training: { kind: 'notice', parentId: 'training:failure', text: '', icon: 'warning', retry: { command: 'rlStudio.refreshModels', title: 'Retry' } } as NoticeNode,
  };
  private ticker: ReturnType<typeof setInterval> | undefined;
  private generation = 0;
  private states: ModelsViewState = { unreachable: false, rejected: false, empty: false };

  constructor(private readonly services: Services) {
    this.checkpoints = new CheckpointPages(async (modelId, query, signal) => (await services.client()).training.listCheckpoints(modelId, query, { signal }));
    this.subscriptions.push(
      services.onDidChangeConnection(() => this.refresh()),
      services.remembered.models.onDidChange(() => {
        this.noteTrainingModels();
        this.changed.fire(undefined);
      }),
      services.health.onDidChange((change) => this.healthChanged(change)),
    );
    this.noteTrainingModels();
  }

  attach(view: vscode.TreeView<ModelsNode>): void {
    // A message above the tree would hide the welcome views: failures are rows or welcome views instead.
    view.message = undefined;
  }

  /** Reads everything again: the catalogue and every expanded model's checkpoints. */
  refresh(): void {
    this.generation++;
    this.catalogue = { state: 'unloaded' };
    this.catalogueLoad = undefined;
    this.failedModels.clear();
    this.checkpoints.resetAll();
    this.changed.fire(undefined);
  }

  /** Re-reads one training model's checkpoints (after a deletion, or a retry). */
  refreshModel(modelId: string): void {
    this.checkpoints.forget(modelId);
    this.failedModels.delete(modelId);
    const node = this.trainingNodes.get(modelId);
    this.changed.fire(node);
  }

  /** Redraws one training model's children with what is loaded. */
  redrawModel(modelId: string): void {
    this.changed.fire(this.trainingNodes.get(modelId));
  }

  /**
   * A job reported a new checkpoint of this model: when its checkpoints are shown, the newest ones
   * are read again (at most every few seconds per model) and appear without Refresh.
   */
  checkpointsMayHaveChanged(modelId: string): void {
    this.checkpoints.newCheckpointsExpected(
      modelId,
      () => this.redrawModel(modelId),
      (error) => this.services.log.debug(`Models view: newest checkpoints of ${modelId}: ${this.services.describeFailure(error).message}`),
    );
  }

  /** The whole-view state the welcome views show (also read by the extension's tests). */
  get viewState(): ModelsViewState {
    return { ...this.states };
  }

  trainingNode(modelId: string): TrainingModelNode | undefined {
    return this.trainingNodes.get(modelId);
  }

  /** The training model's row once the view has read a list holding it (it reads again after a model is added); undefined when that read did not list it. */
  whenListed(modelId: string): Promise<TrainingModelNode | undefined> {
    return this.listing.when(modelId, this.trainingNodes.get(modelId));
  }

  getTreeItem(node: ModelsNode): vscode.TreeItem {
    return treeItemOf(node);
  }

  getParent(node: ModelsNode): ModelsNode | undefined {
    if (node.kind === 'inferenceModel') return inferenceGroup;
    if (node.kind === 'trainingModel') return trainingGroup;
    if (node === this.warnings.catalogue) return inferenceGroup;
    if (node === this.warnings.training) return trainingGroup;
    if (node.kind === 'checkpoint' || node.kind === 'loadMore') return this.trainingNodes.get(node.model.id);
    return undefined;
  }

  async getChildren(node?: ModelsNode): Promise<ModelsNode[]> {
    if (!node) return this.rootChildren();
    if (node.kind === 'group') return node.group === 'inference' ? this.catalogueChildren() : this.trainingChildren();
    if (node.kind === 'trainingModel') return this.checkpointChildren(node);
    return [];
  }

  dispose(): void {
    this.stopTicker();
    this.listing.dispose();
    for (const subscription of this.subscriptions) subscription.dispose();
    this.checkpoints.resetAll();
    this.changed.dispose();
  }

  private async rootChildren(): Promise<ModelsNode[]> {
    const settings = this.services.settings.current;
    if (!isConfigured(settings) || !(await this.services.credentials.isSignedIn())) {
      this.setStates({ unreachable: false, rejected: false, empty: false });
      this.listing.read(() => undefined);
      return [];
    }
    this.syncTrainingNodes();
    const trainingFailure = settings.trainingApiUrl ? this.services.health.failure('training') : undefined;
    if (trainingFailure?.kind === 'rejected') return this.rejected();
    let catalogueFailure: Failure | undefined;
    let hasCatalogue = false;
    if (settings.inferenceApiUrl) {
      const state = await this.loadCatalogue();
      if (state.state === 'failed') {
        if (state.failure.kind === 'rejected') return this.rejected();
        if (state.failure.kind === 'signed-out') {
          this.setStates({ unreachable: false, rejected: false, empty: false });
          return [];
        }
        catalogueFailure = state.failure;
      } else {
        hasCatalogue = state.state === 'loaded' && state.models.length > 0;
      }
    }
    const hasTrainingModels = settings.trainingApiUrl !== '' && this.trainingNodes.size > 0;
    if (catalogueFailure && isConnectionFailure(catalogueFailure) && !hasTrainingModels) {
      // No answer and nothing else to list: the welcome view says so, with Retry, Configure and Show Log.
      // Any other failure (a 429, a 5xx) is the catalogue's warning row, in describeFailure's words.
      this.setStates({ unreachable: true, rejected: false, empty: false, catalogueFailure, trainingFailure });
      return [];
    }
    const empty = !hasCatalogue && !catalogueFailure && !hasTrainingModels;
    this.setStates({ unreachable: false, rejected: false, empty, catalogueFailure, trainingFailure });
    if (empty) return [];
    const groups: ModelsNode[] = [];
    if (hasCatalogue || catalogueFailure) groups.push(inferenceGroup);
    if (settings.trainingApiUrl) groups.push(trainingGroup);
    return groups;
  }

  private rejected(): ModelsNode[] {
    this.setStates({ unreachable: false, rejected: true, empty: false });
    return [];
  }

  private async catalogueChildren(): Promise<ModelsNode[]> {
    const state = await this.loadCatalogue();
    if (state.state === 'failed') return [this.warningRow('catalogue', state.failure)];
    if (state.state !== 'loaded') return [];
    return state.models.map((model) => ({ kind: 'inferenceModel', model }));
  }

  private trainingChildren(): ModelsNode[] {
    this.syncTrainingNodes();
    const failure = this.services.health.failure('training');
    const warning = failure && failure.kind !== 'rejected' ? [this.warningRow('training', failure)] : [];
    if (this.trainingNodes.size > 0) return [...warning, ...this.trainingNodes.values()];
    return [
      ...warning,
      { kind: 'notice', parentId: 'training:create', text: 'Create a training model…', icon: 'add', retry: { command: 'rlStudio.createModel', title: 'Create Model' } },
      { kind: 'notice', parentId: 'training:add', text: 'Add a training model by id…', icon: 'link', retry: { command: 'rlStudio.addModel', title: 'Add Model by ID' } },
    ];
  }

  private async checkpointChildren(node: TrainingModelNode): Promise<ModelsNode[]> {
    const list = this.checkpoints.of(node.model.id);
    try {
      const items = list.started ? list.items : await this.withProgress(list.first());
      this.failedModels.delete(node.model.id);
      const children: ModelsNode[] = items.map((checkpoint) => ({ kind: 'checkpoint', model: node.model, checkpoint }));
      if (list.hasMore) children.push({ kind: 'loadMore', model: node.model, loaded: items.length } satisfies LoadMoreNode);
      if (children.length === 0) children.push(this.notice(node, 'No checkpoints', 'info'));
      return children;
    } catch (error) {
      const failure = this.services.describeFailure(error);
      if (failure.kind === 'rejected' || failure.kind === 'signed-out') {
        // A whole-view state: the welcome view says it once.
        this.refresh();
        return [];
      }
      this.checkpoints.forget(node.model.id);
      this.failedModels.add(node.model.id);
      this.services.log.warn(`Models view: checkpoints of ${node.model.id}: ${failure.message} (${failure.detail ?? 'no request'})`);
      return [{ ...this.notice(node, failure.message, 'warning', { command: 'rlStudio.refreshModel', title: 'Retry', arguments: [node] }), failure }];
    }
  }

  private notice(parent: TrainingModelNode, text: string, icon: string, retry?: vscode.Command): NoticeNode {
    return { kind: 'notice', parentId: parent.model.id, text, detail: retry ? `${text}\nClick to retry.` : text, retry, icon };
  }

  /** A section's one warning row: what failed and when it is tried again; the request is in its tooltip. */
  private warningRow(section: 'catalogue' | 'training', failure: Failure): NoticeNode {
    const row = this.warnings[section];
    row.text = this.warningText(failure);
    row.failure = failure;
    this.startTicker();
    return row;
  }

  /** What failed, then when it is tried again: the next health check, or now while one runs. */
  private warningText(failure: Failure): string {
    return withNextStep(failure, failure.retryable ? (this.services.health.nextCheckIn() ?? 0) : undefined);
  }

  /** Loads the catalogue once per refresh; concurrent callers share the request. */
  private loadCatalogue(): Promise<CatalogueState> {
    if (this.catalogue.state !== 'unloaded') return Promise.resolve(this.catalogue);
    if (this.catalogueLoad) return this.catalogueLoad;
    const generation = this.generation;
    const load = (async (): Promise<CatalogueState> => {
      try {
        const client = await this.services.client();
        const list = await client.inference.listModels();
        return { state: 'loaded', models: [...list.data].sort((a, b) => a.id.localeCompare(b.id)) };
      } catch (error) {
        const failure = this.services.describeFailure(error);
        this.services.log.warn(`Models view: ${failure.message} (${failure.detail ?? 'no request'})`);
        return { state: 'failed', failure };
      }
    })();
    this.catalogueLoad = this.withProgress(load).then((state) => {
      if (generation === this.generation) {
        this.catalogue = state;
        this.catalogueLoad = undefined;
      }
      return state;
    });
    return this.catalogueLoad;
  }

  /**
   * Any call or check saw an API fail or come back. The catalogue follows the inference API (a
   * list that can no longer be read is not shown as if it could); the Training Models section
   * shows or drops its warning row, and models whose checkpoints failed are read again.
   */
  private healthChanged(change: HealthChange): void {
    const { current } = change;
    if (change.api === 'inference') {
      // Only a lost connection hides a list already read: a 429 or a 503 elsewhere leaves it true.
      if (current.state === 'failing' && isConnectionFailure(current.failure) && this.catalogue.state !== 'failed') {
        this.generation++;
        this.catalogueLoad = undefined;
        this.catalogue = { state: 'failed', failure: current.failure };
        this.changed.fire(undefined);
      } else if (current.state === 'reachable' && this.catalogue.state === 'failed') {
        this.generation++;
        this.catalogue = { state: 'unloaded' };
        this.catalogueLoad = undefined;
        this.changed.fire(undefined);
      } else if (current.state === 'failing' && current.failure.kind === 'rejected') {
        this.refresh();
      }
      return;
    }
    if (current.state === 'failing' && current.failure.kind === 'rejected') {
      this.refresh();
      return;
    }
    if (change.recovered) for (const modelId of [...this.failedModels]) this.refreshModel(modelId);
    if (change.previous.state === 'failing' || current.state === 'failing' || change.recovered) this.changed.fire(undefined);
  }

  /** While a section shows a failure, its countdown moves; without one, no timer runs. */
  private startTicker(): void {
    if (this.ticker) return;
    this.ticker = setInterval(() => {
      const showing = (['catalogue', 'training'] as const).filter((section) => this.sectionFailing(section));
      if (showing.length === 0) {
        this.stopTicker();
        return;
      }
      for (const section of showing) {
        const row = this.warnings[section];
        if (section === 'training') row.failure = this.services.health.failure('training');
        if (!row.failure) continue;
        row.text = this.warningText(row.failure);
        this.changed.fire(row);
      }
    }, countdownMs);
  }

  private sectionFailing(section: 'catalogue' | 'training'): boolean {
    return section === 'catalogue' ? this.catalogue.state === 'failed' : this.services.health.failure('training') !== undefined;
  }

  private stopTicker(): void {
    if (this.ticker) clearInterval(this.ticker);
    this.ticker = undefined;
  }

  private setStates(states: ModelsViewState): void {
    this.states = states;
    setContext(ContextKeys.unreachable, states.unreachable);
    setContext(ContextKeys.keyRejected, states.rejected);
    setContext(ContextKeys.modelsEmpty, states.empty);
  }

  private noteTrainingModels(): void {
    setContext(ContextKeys.hasTrainingModels, this.services.remembered.models.list().length > 0);
  }

  private syncTrainingNodes(): void {
    const models = this.services.remembered.models.list();
    const ids = new Set(models.map((model) => model.id));
    const canaries = pinnedCanarySets(this.services.context.workspaceState, this.services.settings.current.trainingApiUrl);
    for (const id of [...this.trainingNodes.keys()]) if (!ids.has(id)) this.trainingNodes.delete(id);
    for (const model of models) {
      const existing = this.trainingNodes.get(model.id);
      const canarySet = canaries.get(model.id);
      // Keep the node object (tree refreshes address it) but take the latest remembered fields.
      if (existing) {
        existing.model = model;
        if (canarySet) existing.canarySet = canarySet;
        else delete existing.canarySet;
      } else this.trainingNodes.set(model.id, { kind: 'trainingModel', model, ...(canarySet ? { canarySet } : {}) });
    }
    this.listing.read((id) => this.trainingNodes.get(id));
  }

  private withProgress<T>(work: Promise<T>): Promise<T> {
    void vscode.window.withProgress({ location: { viewId: 'rlStudio.models' } }, () => work.catch(() => undefined));
    return work;
  }
}
