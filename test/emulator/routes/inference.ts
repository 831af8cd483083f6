/** Routes of the inference API (`/inference/v1`): the model catalogue and chat completions. */
import { route, type Route } from '../context';
import { chatCompletion } from './chat';

export const inferenceRoutes: readonly Route[] = [
  route('GET', '/models', (ctx) => ({
    body: {
      object: 'list',
      data: ctx.env.inferenceModels.map((model) => ({
        id: model.id,
        object: 'model',
        created: model.created,
        owned_by: model.owned_by,
        root: model.root,
        ...(model.maxModelLen === undefined ? {} : { max_model_len: model.maxModelLen }),
      })),
    },
  })),
  route('POST', '/chat/completions', (ctx) => chatCompletion(ctx)),
];
