/** Chat completions, which both the training and the inference API serve with the same wire format. */
import type { ApiCaller } from './apiCaller';
import { createChatStream, type ChatStream } from './chatStream';
import type { CallOptions } from './options';
import { isChatCompletion, readShaped } from './shapes';
import type { ChatCompletion, ChatCompletionRequest } from './types';

// Built once: it is the same for every call.
const readCompletion = readShaped(isChatCompletion, 'a chat completion');

export class ChatCompletionsApi {
  constructor(protected readonly caller: ApiCaller) {}

  chatCompletion(request: ChatCompletionRequest, options?: CallOptions): Promise<ChatCompletion> {
    return this.caller.call({
      method: 'POST',
      path: '/chat/completions',
      body: { ...request, stream: false },
      auth: true,
      signal: options?.signal,
      read: readCompletion,
    });
  }

  streamChatCompletion(request: ChatCompletionRequest, options?: CallOptions): ChatStream {
    return createChatStream({ caller: this.caller, path: '/chat/completions', request, signal: options?.signal });
  }
}
