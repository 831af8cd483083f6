import type { ChatCompletionChunk, Usage } from '../../../src/platform/client/types';
import type { ConversationEnv } from '../../../src/chat/model/conversation';
import type { DocumentStorage } from '../../../src/chat/model/conversationStore';
import type { Clock } from '../../../src/platform/kit/clock';

/** Sequential ids and a clock that advances one ms per reading. */
export function testEnv(): ConversationEnv & { ids: number } {
  const env = {
    ids: 0,
    newId: () => `id${++env.ids}`,
    now: () => 1_700_000_000_000 + env.ids,
  };
  return env;
}

export class MemoryStorage implements DocumentStorage {
  readonly files = new Map<string, string>();
  writes = 0;
  async read(name: string): Promise<string | undefined> {
    return this.files.get(name);
  }
  async write(name: string, text: string): Promise<void> {
    this.writes++;
    this.files.set(name, text);
  }
  async remove(name: string): Promise<void> {
    this.files.delete(name);
  }
}

export function chunk(content: string, extra: { reasoning?: string; finish?: string } = {}): ChatCompletionChunk {
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'm',
    choices: [{ index: 0, delta: { content, ...(extra.reasoning ? { reasoning: extra.reasoning } : {}) }, finish_reason: extra.finish ?? null }],
  };
}

export function usageChunk(usage: Usage): ChatCompletionChunk {
  return { id: 'chatcmpl-test', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [], usage };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Waits until `check` holds, polling every few ms. */
export async function until(check: () => boolean, timeoutMs = 3000, what = 'condition'): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await sleep(2);
  }
}

/** Timers fired by hand, each remembering its delay. */
export function manualTimers() {
  const callbacks = new Map<number, { callback: () => void; ms: number }>();
  let next = 1;
  return {
    now: () => 0,
    setTimeout: (callback: () => void, ms: number) => {
      callbacks.set(next, { callback, ms });
      return next++;
    },
    clearTimeout: (handle: unknown) => void callbacks.delete(handle as number),
    delays: () => [...callbacks.values()].map((entry) => entry.ms),
    pending: () => callbacks.size,
    fire: () => {
      const all = [...callbacks.values()];
      callbacks.clear();
      for (const entry of all) entry.callback();
    },
  } satisfies Clock & Record<string, unknown>;
}

/**
 * A fake model's answer: `words` one chunk each, `delayMs` apart, ending early when aborted; with
 * `usage`, a usage chunk counting them closes it.
 */
export function pacedWords(words: string[], delayMs: number, options: { usage?: boolean } = {}) {
  return (_request: unknown, signal: AbortSignal): AsyncIterable<ChatCompletionChunk> =>
    (async function* () {
      for (const word of words) {
        if (signal.aborted) return;
        yield chunk(word);
        await sleep(delayMs);
      }
      if (options.usage) yield usageChunk({ prompt_tokens: 3, completion_tokens: words.length, total_tokens: 3 + words.length });
    })();
}
