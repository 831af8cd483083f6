/**
 * The real ChatController on the real platform client, driven by a compromised webview: the test
 * posts raw wire messages (anything at all) and reads the raw replies. Storage is in memory and
 * counts the characters written per document; editor services are recording fakes.
 */
import { PlatformClient } from '../../../src/platform/client';
import { ChatController } from '../../../src/chat/model/chatController';
import { ConversationStore } from '../../../src/chat/model/conversationStore';
import { createPlatformBackend } from '../../../src/chat/model/platformBackend';
import type { WireMessage } from '../../../src/platform/pages/wire';
import { FakeUi } from '../../unit/chat/controllerHarness';
import { MemoryStorage } from '../../unit/chat/support';

export class CountingStorage extends MemoryStorage {
  /** Characters written, by document name. */
  readonly charsWritten = new Map<string, number>();
  override async write(name: string, text: string): Promise<void> {
    this.charsWritten.set(name, (this.charsWritten.get(name) ?? 0) + text.length);
    await super.write(name, text);
  }
}

export interface RawReply {
  id: number;
  ok: boolean;
  result?: unknown;
  error?: { message: string; code?: string };
}

export function createHostileChat(baseUrl: string, model: string) {
  const client = new PlatformClient({
    trainingUrl: baseUrl,
    inferenceUrl: baseUrl,
    credentials: { getApiKey: async () => 'fault-key' },
    maxRetries: 0,
    timeoutMs: 20_000,
  });
  const ui = new FakeUi();
  const storage = new CountingStorage();
  const problems: string[] = [];
  const replies = new Map<number, RawReply>();
  const waiting = new Map<number, (reply: RawReply) => void>();
  /** Events by type; answer updates are kept whole, deltas only counted (a 1 MiB answer is many of them). */
  const events = { deltas: 0, deltaChars: 0, answers: [] as { answer: { id: string; status: string; content: string; cut?: unknown } }[] };
  const controller = new ChatController({
    store: new ConversationStore(storage),
    backend: createPlatformBackend({ client: async () => client, trainedModels: () => [] }),
    ui,
    post: (message: WireMessage) => {
      if (message.kind === 'reply') {
        const reply: RawReply = message.ok ? { id: message.id, ok: true, result: message.result } : { id: message.id, ok: false, error: message.error };
        replies.set(message.id, reply);
        waiting.get(message.id)?.(reply);
        waiting.delete(message.id);
      } else if (message.kind === 'event') {
        const event = message.event as { type: string; content?: string; answer?: never };
        if (event.type === 'answerDelta') {
          events.deltas++;
          events.deltaChars += event.content?.length ?? 0;
        } else if (event.type === 'answerUpdated') {
          events.answers.push(event as never);
        }
      }
    },
    lastModel: () => model,
    onProblem: (problem) => problems.push(problem),
  });
  let nextId = 1;

  /** Posts anything, as a compromised webview can. */
  const post = (raw: unknown): void => controller.receive(raw);

  /** Posts a request and waits for its reply. */
  const request = (method: string, params: unknown): Promise<RawReply> => {
    const id = nextId++;
    const reply = new Promise<RawReply>((resolve) => waiting.set(id, resolve));
    post({ kind: 'request', id, method, params });
    return reply;
  };

  return {
    controller,
    client,
    ui,
    storage,
    problems,
    replies,
    events,
    post,
    request,
    /** A request id not used by `request`, for raw posts whose reply the test awaits with `replyTo`. */
    freshId: () => nextId++,
    replyTo: (id: number): Promise<RawReply> => {
      const known = replies.get(id);
      return known ? Promise.resolve(known) : new Promise<RawReply>((resolve) => waiting.set(id, resolve));
    },
    close: async () => {
      await controller.dispose();
      await client.close();
    },
  };
}
