/** Folds the chunks of a streamed chat completion into the answer they spell out. */
import type { ChatCompletionChunk, Usage } from './types';

export interface AccumulatedChat {
  id?: string;
  model?: string;
  content: string;
  reasoning: string;
  finishReason?: string;
  usage?: Usage;
}

/** Incremental form, for a view that shows the answer while it streams. Only choice 0 is kept. */
export class ChatAccumulator {
  private readonly state: AccumulatedChat = { content: '', reasoning: '' };

  add(chunk: ChatCompletionChunk): void {
    const state = this.state;
    if (chunk.id && !state.id) state.id = chunk.id;
    if (chunk.model && !state.model) state.model = chunk.model;
    if (chunk.usage) state.usage = chunk.usage;
    for (const choice of chunk.choices) {
      if (choice.index > 0) continue;
      const delta = choice.delta;
      if (delta) {
        if (typeof delta.content === 'string') state.content += delta.content;
        if (typeof delta.reasoning === 'string') state.reasoning += delta.reasoning;
      }
      if (choice.finish_reason) state.finishReason = choice.finish_reason;
    }
  }

  get result(): AccumulatedChat {
    return { ...this.state };
  }
}

export function accumulateChat(chunks: Iterable<ChatCompletionChunk>): AccumulatedChat {
  const accumulator = new ChatAccumulator();
  for (const chunk of chunks) accumulator.add(chunk);
  return accumulator.result;
}
