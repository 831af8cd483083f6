import { PlatformClient } from '../../../src/api';
import { ChatController } from '../../../src/chat/chatController';
import { ConversationStore } from '../../../src/chat/conversationStore';
import { createPlatformBackend } from '../../../src/chat/platformBackend';
import type { WireMessage } from '../../../src/webview/common/wire';
import type { Emulator } from '../../emulator';
import { FakeUi } from './controllerHarness';
import { MemoryStorage } from './support';

/** A ChatController on the real platform client, pointed at the emulator, remembering its seeded model. */
export function createEmulatorController(emulator: Emulator, post: (message: WireMessage) => void, options: { storage?: MemoryStorage; ui?: FakeUi } = {}) {
  const client = new PlatformClient({
    trainingUrl: emulator.trainingUrl,
    inferenceUrl: emulator.inferenceUrl,
    credentials: { getApiKey: async () => emulator.apiKey },
    retryBaseDelayMs: 5,
    retryMaxDelayMs: 20,
    timeoutMs: 10_000,
  });
  const seeded = emulator.seeded!;
  const ui = options.ui ?? new FakeUi();
  const storage = options.storage ?? new MemoryStorage();
  const controller = new ChatController({
    store: new ConversationStore(storage),
    backend: createPlatformBackend({
      client: async () => client,
      trainedModels: () => [{ id: seeded.trainedModelId, entity: seeded.trainedModelEntity, project: seeded.trainedModelProject, name: seeded.trainedModelName, base_model: seeded.baseModels[0]! }],
      checkpointsPerModel: 5,
    }),
    ui,
    post,
    saveDelayMs: 10,
    lastModel: () => seeded.inferenceModels[0],
  });
  return {
    controller,
    client,
    ui,
    storage,
    close: async () => {
      await controller.dispose();
      await client.close();
    },
  };
}
