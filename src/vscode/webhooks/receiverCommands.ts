import * as vscode from 'vscode';
import type * as Receiver from '../../webhook/receiver';
import type { Services } from '../platform/services';
import { onlyFromTests } from '../platform/testHooks';
import type { ReceiverController } from './receiverController';
import { addWebhook } from './webhookCommands';
import type { WebhookStore } from './webhookStore';

/** What the extension's own tests may pass to Start Local Receiver; any other caller's is ignored. */
export interface StartReceiverOptions {
  port?: number;
  /** The secret to check signatures against; null for none. Asked for when absent. */
  secret?: string | null;
  /** Skip the offer to add a webhook for the receiver. */
  quiet?: boolean;
}

export function registerReceiverCommands(services: Services, receiver: ReceiverController, store: WebhookStore): void {
  services.registerCommand('rlStudio.webhook.startReceiver', async (options?: StartReceiverOptions) => {
    // A secret, a port and "no offer" come only from the extension's own tests; anyone else is asked.
    const fromTests = onlyFromTests(services, options);
    const given = fromTests && typeof fromTests === 'object' && !('type' in fromTests) ? fromTests : {};
    const secret = given.secret !== undefined ? given.secret ?? undefined : await askSecret(store);
    if (secret === cancelled) return undefined;
    const port = receiverPort(given.port ?? vscode.workspace.getConfiguration('rlStudio.webhooks').get<unknown>('receiverPort', 0), services, receiver);
    const running = await receiver.start({ port, secret: secret || undefined });
    services.log.info(`local webhook receiver listening on 127.0.0.1:${running.port}`);
    if (!given.quiet) void offerWebhook(running.url, secret || undefined, store).catch((error) => services.showError(error));
    // The receiver holds every request it got, credentials included: handed to tests only.
    return onlyFromTests(services, running);
  });

  services.registerCommand('rlStudio.webhook.stopReceiver', () => receiver.stop());
  services.registerCommand('rlStudio.webhook.showReceiver', () => receiver.showLog());
}

/** The port setting clamped to 0..65535 (0: a free port); a value out of range is logged and replaced by 0. */
function receiverPort(value: unknown, services: Services, receiver: ReceiverController): number {
  // Loaded here, not imported: the receiver (and node:http) load when one is started.
  const { port, problem } = (require('../../webhook/receiver') as typeof Receiver).receiverPortFrom(value);
  if (problem) {
    services.log.warn(problem);
    receiver.note(problem);
  }
  return port;
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
  const answer = await vscode.window.showInformationMessage(`The local receiver is listening. Send webhooks to ${url}: only this address is answered.`, add, copy);
  if (answer === copy) await vscode.env.clipboard.writeText(url);
  if (answer !== add) return;
  const taken = new Set(store.list().map((webhook) => webhook.name));
  let name = 'local-receiver';
  for (let index = 2; taken.has(name); index++) name = `local-receiver-${index}`;
  // Called directly, not through the command: the command takes no secret value from its caller.
  await addWebhook(store, { name, url, ...(secret ? { secretName: 'RECEIVER_SECRET', secretValue: secret } : {}) }, true);
}
