import { isAnswer, summarize, type Conversation, type ConversationSummary } from './conversationTypes';
import { describeChars, maxStoredConversationChars } from './limits';
import { isSafeId, parseConversation, parseIndex, serializeConversation, serializeIndex, type StoredIndex } from './persistence';

/** Where stored documents live: files in the extension's storage folder, or memory in tests. */
export interface DocumentStorage {
  read(name: string): Promise<string | undefined>;
  write(name: string, text: string): Promise<void>;
  remove(name: string): Promise<void>;
}

const indexName = 'index.json';
const documentName = (id: string): string => `conversation-${id}.json`;

/** A conversation too large to store, even without its reasoning; the file on disk is left as it was. */
export class ConversationTooLargeError extends Error {
  constructor(readonly chars: number) {
    super(`the conversation is larger than ${describeChars(maxStoredConversationChars)} and was not saved: start a new conversation, and export this one to keep it`);
    this.name = 'ConversationTooLargeError';
  }
}

/**
 * Conversations, persisted. Loaded conversations stay in memory and are the one live copy the
 * controller mutates; `save` writes it (writes of one document are queued, so an older state can
 * never land after a newer one).
 */
export class ConversationStore {
  private index: StoredIndex | undefined;
  private readonly loaded = new Map<string, Conversation>();
  private readonly writes = new Map<string, Promise<void>>();
  /** Characters of each conversation's document as last read or written. */
  private readonly sizes = new Map<string, number>();

  constructor(
    private readonly storage: DocumentStorage,
    private readonly maxDocumentChars = maxStoredConversationChars,
  ) {}

  async list(): Promise<ConversationSummary[]> {
    const index = await this.readIndex();
    return [...index.conversations].sort((a, b) => b.updatedAt - a.updatedAt);
  }

  async lastOpenedId(): Promise<string | undefined> {
    return (await this.readIndex()).lastOpenedId;
  }

  async setLastOpened(id: string): Promise<void> {
    const index = await this.readIndex();
    if (index.lastOpenedId === id) return;
    index.lastOpenedId = id;
    await this.writeIndex();
  }

  async get(id: string): Promise<Conversation | undefined> {
    if (!isSafeId(id)) return undefined;
    const cached = this.loaded.get(id);
    if (cached) return cached;
    const text = await this.storage.read(documentName(id));
    const conversation = parseConversation(text);
    if (!conversation || conversation.id !== id) return undefined;
    this.loaded.set(id, conversation);
    this.sizes.set(id, text?.length ?? 0);
    return conversation;
  }

  /** Characters of the conversation's stored document, as last read or written (0 when never). */
  storedChars(id: string): number {
    return this.sizes.get(id) ?? 0;
  }

  /** Adds a new conversation (already built) and writes it. */
  async add(conversation: Conversation): Promise<void> {
    this.loaded.set(conversation.id, conversation);
    await this.save(conversation);
  }

  /**
   * Writes the conversation; resolves with the characters written. A document over the size limit
   * is stored without the answers' reasoning (the least needed part; it stays in memory); one still
   * over is not written at all (ConversationTooLargeError) and the previous file stays intact.
   */
  async save(conversation: Conversation): Promise<number> {
    if (!isSafeId(conversation.id)) throw new Error('conversation id is not storable');
    this.loaded.set(conversation.id, conversation);
    let text = serializeConversation(conversation);
    if (text.length > this.maxDocumentChars) text = serializeConversation(withoutReasoning(conversation));
    if (text.length > this.maxDocumentChars) throw new ConversationTooLargeError(text.length);
    const index = await this.readIndex();
    const summary = summarize(conversation);
    const position = index.conversations.findIndex((item) => item.id === conversation.id);
    if (position >= 0) index.conversations[position] = summary;
    else index.conversations.push(summary);
    this.sizes.set(conversation.id, text.length);
    await Promise.all([this.queue(documentName(conversation.id), () => this.storage.write(documentName(conversation.id), text)), this.writeIndex()]);
    return text.length;
  }

  async delete(id: string): Promise<void> {
    const index = await this.readIndex();
    index.conversations = index.conversations.filter((item) => item.id !== id);
    if (index.lastOpenedId === id) delete index.lastOpenedId;
    this.loaded.delete(id);
    this.sizes.delete(id);
    await Promise.all([this.queue(documentName(id), () => this.storage.remove(documentName(id))), this.writeIndex()]);
  }

  private async readIndex(): Promise<StoredIndex> {
    this.index ??= parseIndex(await this.storage.read(indexName));
    return this.index;
  }

  private writeIndex(): Promise<void> {
    return this.queue(indexName, () => this.storage.write(indexName, serializeIndex(this.index!)));
  }

  private queue(name: string, write: () => Promise<void>): Promise<void> {
    const previous = this.writes.get(name) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(write);
    this.writes.set(name, next);
    void next
      .finally(() => {
        if (this.writes.get(name) === next) this.writes.delete(name);
      })
      .catch(() => undefined);
    return next;
  }
}

function withoutReasoning(conversation: Conversation): Conversation {
  return { ...conversation, messages: conversation.messages.map((entry) => (isAnswer(entry) && entry.reasoning ? { ...entry, reasoning: '' } : entry)) };
}
