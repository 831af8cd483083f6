import * as vscode from 'vscode';
import { shortModelLabel } from '../../../platform/kit/modelIds';
import { chatDefaultModelKey } from '../../../platform/host/rememberedItems';
import { copyToClipboard } from '../../../platform/host/clipboard';
import type { Dialogs } from '../../../platform/host/dialogs';
import type { Services } from '../../../platform/host/services';
import { maxPinnedModels } from '../../../platform/host/rememberedItems';

/**
 * Promotes a model (a checkpoint chosen to ship): pins it in the chat's picker and in VS Code's
 * model picker, makes it the model new chats start with, and puts its id on the clipboard for the
 * code that will call it. At most `maxPinnedModels` stay pinned; pinning more drops the oldest.
 */
export async function useInChat(services: Services, dialogs: Dialogs, modelId: string): Promise<void> {
  const pinned = services.remembered.pinned;
  await pinned.add({ id: modelId, pinnedAt: new Date().toISOString() });
  for (const old of pinned.list().slice(maxPinnedModels)) await pinned.remove(old.id);
  await services.context.globalState.update(chatDefaultModelKey, modelId);
  const copied = await copyToClipboard(modelId);
  services.log.info(`pinned ${modelId} for the chat and the model picker; new chats start with it`);
  dialogs.info(
    `${shortModelLabel(modelId)} is pinned in the chat and in VS Code's model picker, and new chats start with it. ${copied ? 'Its model id is on the clipboard.' : 'Its model id could not be put on the clipboard: Copy Checkpoint Model ID on its row in the Models view gives it.'}`,
    {
      title: 'Open Chat',
      run: () => vscode.commands.executeCommand('rlStudio.openChat'),
    },
  );
}
