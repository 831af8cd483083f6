import type * as vscode from 'vscode';
import { RememberedList } from '../../platform/host/rememberedItems';
import type { Services } from '../../platform/host/services';

/** A platform model followed from a local model folder. */
export interface LocalRunLink {
  /** The platform's model id. */
  id: string;
  /** The local model folder (`…/models/<model>`). */
  folder: string;
}

/** Links kept at most: older ones are dropped first. */
export const maxLocalRunLinks = 200;

/**
 * Which platform model each followed local model became, per training API address (as the Models
 * view's own list): the Models view opens a followed model's logged rollouts through it, and the
 * Local Runs view marks the local model as followed. Ids and folder paths only.
 */
export class LocalRunLinks implements vscode.Disposable {
  private readonly list: RememberedList<LocalRunLink>;
  readonly onDidChange: vscode.Event<void>;

  constructor(services: Services) {
    this.list = new RememberedList<LocalRunLink>(services.context.globalState, 'localRunLinks', () => services.settings.current.trainingApiUrl || 'unset');
    this.onDidChange = this.list.onDidChange;
  }

  async link(id: string, folder: string): Promise<void> {
    await this.list.add({ id, folder });
    const all = this.list.list();
    for (const old of all.slice(maxLocalRunLinks)) await this.list.remove(old.id);
  }

  folderOf(modelId: string): string | undefined {
    return this.list.get(modelId)?.folder;
  }

  followedId(folder: string): string | undefined {
    return this.list.list().find((link) => link.folder === folder)?.id;
  }

  dispose(): void {
    this.list.dispose();
  }
}
