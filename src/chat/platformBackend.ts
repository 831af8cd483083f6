import type { PlatformClient } from '../api';
import type { TrainingModel } from '../api/types';
import type { ChatBackend } from './chatPorts';
import { buildModelOptions, type ModelCatalogue, type TrainedModelSource } from './modelOptions';

export interface PlatformBackendOptions {
  client(): Promise<PlatformClient>;
  /** Training models the user created or added (the platform cannot list them). */
  trainedModels(): TrainingModel[];
  /** How many of each model's newest checkpoints the picker offers. */
  checkpointsPerModel?: number;
}

/**
 * The chat's backend on the one platform client: catalogue models stream from the inference API,
 * checkpoints from the training API. The picker lists the catalogue and, for each remembered
 * training model, its newest checkpoints; a source that fails is named in `problems` and the rest
 * is still offered.
 */
export function createPlatformBackend(options: PlatformBackendOptions): ChatBackend {
  return {
    stream: (request, api, signal) => ({
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
      return { options: buildModelOptions(catalogueIds, trained), problems };
    },
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
