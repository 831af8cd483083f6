/** The calls of the inference API: chat completions and the model catalogue. */
import { ChatCompletionsApi } from './chatCompletionsApi';
import type { CallOptions } from './options';
import { isModelList, readShaped } from './shapes';
import type { ModelList } from './types';

// Built once: it is the same for every call.
const readModelList = readShaped(isModelList, 'a model list');

export class InferenceApi extends ChatCompletionsApi {
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
