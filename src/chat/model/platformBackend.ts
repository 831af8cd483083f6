import type { PlatformClient } from '../../platform/client';
import { describeFailure } from '../../platform/client/describeFailure';
import type { TrainingModel } from '../../platform/client/types';
import type { FailureWords } from './answerErrors';
import type { ChatBackend } from './chatPorts';
import { buildModelOptions, type ModelCatalogue, type TrainedModelSource } from './modelOptions';

export interface PlatformBackendOptions {
  client(): Promise<PlatformClient>;
  /** Training models the user created or added (the platform cannot list them). */
  trainedModels(): TrainingModel[];
  /** Models pinned for the chat (a promoted checkpoint), offered first whatever their step. */
  pinnedModels?(): string[];
  /** How many of each model's newest checkpoints the picker offers. */
  checkpointsPerModel?: number;
  /** Words for a failed call, as the rest of the extension puts them (with the API's address). */
  describeFailure?: FailureWords;
}

/**
 * The chat's backend on the one platform client: catalogue models stream from the inference API,
 * checkpoints from the training API. The picker lists the catalogue and, for each remembered
 * training model, its newest checkpoints; a source that fails is named in `problems` and the rest
 * is still offered.
 */
export function createPlatformBackend(options: PlatformBackendOptions): ChatBackend {
  const describe = options.describeFailure ?? describeFailure;
  // The problems go to the log: the words, then the request that failed.
  const messageOf = (error: unknown) => {
    const failure = describe(error);
    return failure.detail && failure.detail !== failure.message ? `${failure.message} (${failure.detail})` : failure.message;
  };
  return {
    stream: (request, api, signal) => ({
      describeFailure: describe,
      async *[Symbol.asyncIterator]() {
        const client = await options.client();
        const side = api === 'training' ? client.training : client.inference;
        yield* side.streamChatCompletion(request, { signal });
      },
    }),
    listModels: async (): Promise<ModelCatalogue> => {
      const client = await options.client();
      const problems: string[] = [];
      const [catalogueIds, trained] = await Promise.all([
        client.inference.listModels().then(
          (list) => list.data.map((entry) => entry.id),
          (error: unknown) => {
            problems.push(`Inference models: ${messageOf(error)}`);
            return [] as string[];
          },
        ),
        Promise.all(
          options.trainedModels().map(async (model): Promise<TrainedModelSource> => {
            const source = { entity: model.entity, project: model.project, name: model.name, steps: [] as number[] };
            try {
              const page = await client.training.listCheckpoints(model.id, { order: 'desc', limit: options.checkpointsPerModel ?? 20 });
              source.steps = page.data.map((checkpoint) => checkpoint.step);
            } catch (error) {
              problems.push(`Checkpoints of ${model.name}: ${messageOf(error)}`);
            }
            return source;
          }),
        ),
      ]);
      return { options: buildModelOptions(catalogueIds, trained, options.pinnedModels?.() ?? []), problems };
    },
  };
}
