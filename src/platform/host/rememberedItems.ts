import * as vscode from 'vscode';
import type { TrainingModel } from '../client/types';

/**
 * The platform has no endpoint that lists training models or jobs, so the extension remembers the
 * ones the user created or added by id, per training API address (an emulator and the real service
 * keep separate lists). Stored in globalState: ids and names only, never a credential.
 */
export class RememberedList<T extends { id: string }> implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly memento: vscode.Memento,
    private readonly kind: string,
    private readonly scope: () => string,
  ) {}

  list(): T[] {
    return this.memento.get<T[]>(this.storageKey(), []);
  }

  get(id: string): T | undefined {
    return this.list().find((item) => item.id === id);
  }

  /** Adds the item, or replaces the one with the same id; newest first. */
  async add(item: T): Promise<void> {
    const rest = this.list().filter((existing) => existing.id !== item.id);
    await this.memento.update(this.storageKey(), [item, ...rest]);
    this.changed.fire();
  }

  async remove(id: string): Promise<void> {
    await this.memento.update(
      this.storageKey(),
      this.list().filter((item) => item.id !== id),
    );
    this.changed.fire();
  }

  /** Lets listeners re-read after the scope (the training API address) changed. */
  scopeChanged(): void {
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }

  private storageKey(): string {
    return `rlStudio.${this.kind}:${this.scope()}`;
  }
}

/** A training job the user created or added: enough to show it before its events are fetched. */
export interface RememberedJob {
  id: string;
  /** Model the job trains, when known. */
  modelId?: string;
  kind?: 'rl' | 'sft';
  /** When the job was created or added, ISO time. */
  addedAt: string;
  /** A short label: the file it was created from, or the id. */
  label?: string;
}

export type RememberedModel = TrainingModel;

/** A model pinned for the chat and VS Code's model picker: a checkpoint chosen to ship. */
export interface PinnedModel {
  /** The model id as sent (`wandb-artifact:///…:stepN` for a checkpoint). */
  id: string;
  /** When it was pinned, ISO time. */
  pinnedAt: string;
}

/** Pins kept per training API address; pinning more drops the oldest. */
export const maxPinnedModels = 20;

/** Where the model new chats start with is kept (globalState): the last one used, or one promoted from an evaluation. */
export const chatDefaultModelKey = 'rlStudio.chat.lastModel';

/**
 * Where the followed jobs last seen moving (queued or running) are kept, per training API address as
 * the remembered jobs are: a job among them that is over when RL Studio next reads it is news.
 */
export function movingJobsKey(trainingApiUrl: string): string {
  return `rlStudio.movingJobs:${trainingApiUrl || 'unset'}`;
}

/** The workspace-state key of the canaries pinned against a training API (see the evaluations' canary). */
export function canaryPinsKey(trainingApiUrl: string): string {
  return `rlStudio.canaries:${trainingApiUrl || 'unset'}`;
}

/** The eval set (a URI string) of each model with a canary pinned, for the Models view to show it; the canary reads its pins whole. */
export function pinnedCanarySets(state: vscode.Memento, trainingApiUrl: string): Map<string, string> {
  const pins = state.get<unknown>(canaryPinsKey(trainingApiUrl));
  const sets = new Map<string, string>();
  if (!Array.isArray(pins)) return sets;
  for (const pin of pins.slice(0, 100) as { modelId?: unknown; setUri?: unknown }[]) if (typeof pin?.modelId === 'string' && typeof pin.setUri === 'string') sets.set(pin.modelId, pin.setUri);
  return sets;
}
