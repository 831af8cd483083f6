import { errorMessage } from '../../platform/client/errorMessage';
import type { ChatBackend } from './chatPorts';
import type { Conversation } from './conversationTypes';
import type { ModelCatalogue } from './modelOptions';

export interface ChatModelCatalogueOptions {
  backend: ChatBackend;
  /** The model of the previous chat, preferred as the default while it is still offered. */
  lastModel?(): string | undefined;
  /** Tells the webview the list is loading, or what it now holds. */
  onChange(catalogue: ModelCatalogue, loading: boolean): void;
  /** Reports a source of models that failed (the pickers still offer the rest). */
  onProblem(problem: string): void;
  /** Runs after each load, before the load counts as done (the open conversation may now get a model). */
  afterLoad?(): Promise<void>;
}

/**
 * The models the pickers offer: read from the platform once, on demand, and again when the
 * connection or the remembered models change. Concurrent loads share one request.
 */
export class ChatModelCatalogue {
  private catalogue: ModelCatalogue = { options: [], problems: [] };
  private loading: Promise<ModelCatalogue> | undefined;
  private loaded = false;

  constructor(private readonly options: ChatModelCatalogueOptions) {}

  /** The list as last read (empty before the first load ends). */
  get current(): ModelCatalogue {
    return this.catalogue;
  }

  get isLoaded(): boolean {
    return this.loaded;
  }

  /** Reads the list unless it was read or is being read already. */
  load(): Promise<ModelCatalogue> {
    this.loading ??= (async () => {
      this.options.onChange(this.catalogue, true);
      let catalogue: ModelCatalogue;
      try {
        catalogue = await this.options.backend.listModels();
      } catch (error) {
        catalogue = { options: this.catalogue.options, problems: [errorMessage(error)] };
      }
      this.catalogue = catalogue;
      this.loaded = true;
      for (const problem of catalogue.problems) this.options.onProblem(`model list: ${problem}`);
      this.options.onChange(catalogue, false);
      await this.options.afterLoad?.();
      return catalogue;
    })();
    return this.loading;
  }

  /** Reads the list again. */
  refresh(): Promise<ModelCatalogue> {
    this.loading = undefined;
    this.loaded = false;
    return this.load();
  }

  /** The list being read, or the one read last: the answer to a refresh asked for too soon. */
  latest(): Promise<ModelCatalogue> | ModelCatalogue {
    return this.loading ?? this.catalogue;
  }

  /** Gives the conversation the previous chat's model when it is still offered, else the first one; false when none is. */
  pickDefault(conversation: Conversation): boolean {
    const options = this.catalogue.options;
    if (options.length === 0) return false;
    const last = this.options.lastModel?.();
    conversation.settings.model = last && options.some((option) => option.id === last) ? last : options[0]!.id;
    return true;
  }
}
