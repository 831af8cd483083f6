import * as vscode from 'vscode';
import type { Services } from '../services';
import type { ReceiverController } from './receiverController';
import { addWebhook } from './webhookCommands';
import type { WebhookStore } from './webhookStore';

export interface StartReceiverOptions {
  port?: number;
  /** The secret to check signatures against; null for none. Asked for when absent. */
  secret?: string | null;
  /** Skip the offer to add a webhook for the receiver. */
  quiet?: boolean;
}

export function registerReceiverCommands(services: Services, receiver: ReceiverController, store: WebhookStore): void {
  services.registerCommand('rlStudio.webhook.startReceiver', async (options?: StartReceiverOptions) => {
    const given = options && typeof options === 'object' && !('type' in options) ? options : {};
    const secret = given.secret !== undefined ? given.secret ?? undefined : await askSecret(store);
    if (secret === cancelled) return undefined;
    const port = given.port ?? vscode.workspace.getConfiguration('rlStudio.webhooks').get<number>('receiverPort', 0);
    const running = await receiver.start({ port, secret: secret || undefined });
    services.log.info(`local webhook receiver listening on ${running.url}`);
    if (!given.quiet) void offerWebhook(running.url, secret || undefined, store).catch((error) => services.showError(error));
    return running;
  });

  services.registerCommand('rlStudio.webhook.stopReceiver', () => receiver.stop());
  services.registerCommand('rlStudio.webhook.showReceiver', () => receiver.showLog());
}

const cancelled = Symbol('cancelled');

async function askSecret(store: WebhookStore): Promise<string | undefined | typeof cancelled> {
  type Pick = vscode.QuickPickItem & { choice: 'webhook' | 'enter' | 'none'; id?: string };
  const picks: Pick[] = [
    ...store.list().filter((webhook) => webhook.secretName).map((webhook) => ({
      label: `$(key) Secret of ${webhook.name}`,
      description: webhook.secretName,
      choice: 'webhook' as const,
      id: webhook.id,
    })),
    { label: '$(edit) Enter a secret…', choice: 'enter' },
    { label: '$(circle-slash) Do not check signatures', choice: 'none' },
  ];
  const picked = await vscode.window.showQuickPick(picks, { title: 'Start Local Receiver', placeHolder: 'Which secret should X-Service-Signature be checked against?' });
  if (!picked) return cancelled;
  if (picked.choice === 'none') return undefined;
  if (picked.choice === 'webhook') return (await store.credentials(picked.id!)).secret;
  const value = await vscode.window.showInputBox({ title: 'Secret to check signatures against', password: true, ignoreFocusOut: true });
  return value === undefined ? cancelled : value;
}

/** A receiver is most useful as the endpoint of a webhook: offer to add one pointing at it. */
async function offerWebhook(url: string, secret: string | undefined, store: WebhookStore): Promise<void> {
  const add = 'Add Webhook for It';
  const copy = 'Copy URL';
  const answer = await vscode.window.showInformationMessage(`The local receiver listens on ${url}.`, add, copy);
  if (answer === copy) await vscode.env.clipboard.writeText(url);
  if (answer !== add) return;
  const taken = new Set(store.list().map((webhook) => webhook.name));
  let name = 'local-receiver';
  for (let index = 2; taken.has(name); index++) name = `local-receiver-${index}`;
  // Called directly, not through the command: the command takes no secret value from its caller.
  await addWebhook(store, { name, url, ...(secret ? { secretName: 'RECEIVER_SECRET', secretValue: secret } : {}) }, true);
}
