import { ChatController } from '../../../src/chat/model/chatController';
import { ConversationStore } from '../../../src/chat/model/conversationStore';
import { createPlatformBackend } from '../../../src/chat/model/platformBackend';
import type { WireMessage } from '../../../src/platform/pages/wire';
import type { Emulator } from '../../emulator';
import { clientFor } from '../platform/client/support/harness';
import { FakeUi } from './controllerHarness';
import { MemoryStorage } from './support';

/** A ChatController on the real platform client, pointed at the emulator, remembering its seeded model. */
export function createEmulatorController(emulator: Emulator, post: (message: WireMessage) => void, options: { storage?: MemoryStorage; ui?: FakeUi } = {}) {
  const client = clientFor(emulator, { retryMaxDelayMs: 20, timeoutMs: 10_000 });
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
