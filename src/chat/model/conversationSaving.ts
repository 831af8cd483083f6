import { errorMessage } from '../../platform/client/errorMessage';
import type { ConversationStore } from './conversationStore';
import type { Conversation } from './conversationTypes';
import { SaveScheduler } from './saveScheduler';

export interface ConversationSavingOptions {
  store: ConversationStore;
  /** The conversation on screen, written to the index as the one to open next time. */
  openedId(): string | undefined;
  /** Reports a write that failed: there is no message on screen to show it on. */
  onProblem(problem: string): void;
  /** Shortest pause between a write of a conversation and a coalesced write of it (default 5 s). */
  minIntervalMs?: number;
}

/** How long the conversation on screen waits before it is written to the index as the last opened. */
const lastOpenedDelayMs = 1000;

/**
 * Everything the chat writes to storage, and when: a change that matters at once, the small
 * changes that come in streams (a draft, settings, an answer's text) coalesced by the
 * SaveScheduler, and which conversation is open. Nothing here runs per streamed token; a write
 * that fails is reported and the conversation stays in memory.
 */
export class ConversationSaving {
  private readonly scheduler: SaveScheduler;
  private lastOpenedTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly options: ConversationSavingOptions) {
    this.scheduler = new SaveScheduler({ write: (conversation) => this.write(conversation), minIntervalMs: options.minIntervalMs });
  }

  /** Writes at once (a new turn, an answer's end, an edit), replacing a pending coalesced write. */
  now(conversation: Conversation): Promise<void> {
    return this.scheduler.writeNow(conversation);
  }

  /** Writes after `delayMs` or later (see SaveScheduler); does nothing when a write is pending already. */
  soon(conversation: Conversation, delayMs: number): void {
    this.scheduler.schedule(conversation, delayMs);
  }

  /** Drops a pending write (the conversation is being deleted). */
  cancel(conversationId: string): void {
    this.scheduler.cancel(conversationId);
  }

  /**
   * The conversation on screen changed. Which one it is goes to the index a second later, once: a
   * webview switching back and forth costs one small write, not one per switch.
   */
  openedChanged(): void {
    if (this.lastOpenedTimer !== undefined) return;
    this.lastOpenedTimer = setTimeout(() => void this.writeLastOpened(), lastOpenedDelayMs);
    (this.lastOpenedTimer as { unref?(): void }).unref?.();
  }

  /** Writes every pending change and the open conversation now (the panel closes) rather than dropping them. */
  async flush(): Promise<void> {
    await this.scheduler.flush();
    await this.writeLastOpened();
  }

  /** The one place a conversation is written; resolves with the characters written. */
  private async write(conversation: Conversation): Promise<number | undefined> {
    try {
      if (await this.isDeleted(conversation.id)) return undefined;
      return await this.options.store.save(conversation);
    } catch (error) {
      this.options.onProblem(`saving the conversation failed: ${errorMessage(error)}`);
      return undefined;
    }
  }

  private async writeLastOpened(): Promise<void> {
    clearTimeout(this.lastOpenedTimer);
    this.lastOpenedTimer = undefined;
    const id = this.options.openedId();
    if (!id) return;
    try {
      await this.options.store.setLastOpened(id);
    } catch (error) {
      this.options.onProblem(`saving: ${errorMessage(error)}`);
    }
  }

  private async isDeleted(conversationId: string): Promise<boolean> {
    return !(await this.options.store.list()).some((summary) => summary.id === conversationId);
  }
}
