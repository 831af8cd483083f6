/** The calls of the inference API: chat completions and the model catalogue. */
import type { ApiCaller } from './apiCaller';
import { createChatStream, type ChatStream } from './chatStream';
import type { CallOptions } from './options';
import { isChatCompletion, isModelList, readShaped } from './shapes';
import type { ChatCompletion, ChatCompletionRequest, ModelList } from './types';

// Built once: they are the same for every call.
const readCompletion = readShaped(isChatCompletion, 'a chat completion');
const readModelList = readShaped(isModelList, 'a model list');

export class InferenceApi {
  constructor(private readonly caller: ApiCaller) {}

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

  listModels(options?: CallOptions): Promise<ModelList> {
    return this.caller.call({
      method: 'GET',
      path: '/models',
      auth: true,
      signal: options?.signal,
      read: readModelList,
    });
  }
}
