import * as vscode from 'vscode';
import { quoted } from '../../platform/kit/confirmationText';
import type * as ReceiverRules from '../model/receiverRules';
import type { Dialogs } from '../../platform/host/dialogs';
import type { Services } from '../../platform/host/services';
import { featureSetting } from '../../platform/host/settings';
import { onlyFromTests } from '../../platform/host/testHooks';
import type { ReceiverController } from './receiverController';
import { addWebhook } from './webhookCommands';
import type { WebhookStore } from './webhookStore';
import { copyAndSay } from '../../platform/host/clipboard';

/**
 * What the extension's own tests may pass to Start Local Receiver; any other caller's is ignored.
 * The offer to add a webhook that follows is a question like any other: tests answer it through
 * the dialogs service.
 */
export interface StartReceiverOptions {
  port?: number;
  /** The secret to check signatures against; null for none. Asked for when absent. */
  secret?: string | null;
}

export function registerReceiverCommands(services: Services, receiver: ReceiverController, store: WebhookStore): void {
  // A webhook added for a receiver points at an address only that receiver answers (a random path
  // on a port of this run): it goes once that receiver stops, so no dead webhook is left behind. The
  // addresses of the receivers this window started tell such webhooks apart, whenever the offer to
  // add one was answered.
  const startedUrls: string[] = [];
  const removeReceiverWebhooks = async (): Promise<void> => {
    const live = receiver.running?.url;
    const names: string[] = [];
    for (const webhook of store.list()) {
      if (!/^local-receiver(-\d+)?$/.test(webhook.name)) continue;
      const url = await store.url(webhook.id);
      if (!url || url === live || !startedUrls.includes(url)) continue;
      await store.remove(webhook.id);
      names.push(webhook.name);
    }
    if (names.length === 0) return;
    services.log.info(`removed the webhook${names.length === 1 ? '' : 's'} ${names.join(', ')} added for the local receiver, which stopped`);
    services.dialogs.info(`The local receiver stopped, so the webhook ${names.map((name) => quoted(name)).join(', ')} added for it was removed: its address no longer answers.`);
  };
  services.context.subscriptions.push({ dispose: () => void removeReceiverWebhooks() });

  services.registerCommand('rlStudio.webhook.startReceiver', async (options?: StartReceiverOptions) => {
    // A secret and a port come only from the extension's own tests; anyone else is asked.
    const fromTests = onlyFromTests(services, options);
    const given = fromTests && typeof fromTests === 'object' && !('type' in fromTests) ? fromTests : {};
    const secret = given.secret !== undefined ? (given.secret ?? undefined) : await askSecret(services.dialogs, store);
    if (secret === cancelled) return undefined;
    const port = receiverPort(given.port ?? featureSetting('webhooks.receiverPort'), services, receiver);
    const running = await receiver.start({ port, secret: secret || undefined });
    startedUrls.push(running.url);
    if (startedUrls.length > 50) startedUrls.shift();
    // Starting again stopped the receiver that ran: its webhook goes with it.
    await removeReceiverWebhooks();
    services.log.info(`local webhook receiver listening on 127.0.0.1:${running.port}`);
    void offerWebhook(services.dialogs, running.url, secret || undefined, store)
      // Answered after the receiver stopped: the webhook just added goes at once.
      .then(() => (receiver.running?.url === running.url ? undefined : removeReceiverWebhooks()))
      .catch((error) => services.showError(error));
    // The receiver holds every request it got, credentials included: handed to tests only.
    return onlyFromTests(services, running);
  });

  services.registerCommand('rlStudio.webhook.stopReceiver', async () => {
    const stopped = await receiver.stop();
    await removeReceiverWebhooks();
    return stopped;
  });
  services.registerCommand('rlStudio.webhook.showReceiver', () => receiver.showLog());
}

/** The port setting clamped to 0..65535 (0: a free port); a value out of range is logged and replaced by 0. */
function receiverPort(value: unknown, services: Services, receiver: ReceiverController): number {
  // Loaded here, not imported: the receiver's rules load when one is started.
  const { port, problem } = (require('../model/receiverRules') as typeof ReceiverRules).receiverPortFrom(value);
  if (problem) {
    services.log.warn(problem);
    receiver.note(problem);
  }
  return port;
}

const cancelled = Symbol('cancelled');

async function askSecret(dialogs: Dialogs, store: WebhookStore): Promise<string | undefined | typeof cancelled> {
  type Pick = vscode.QuickPickItem & { choice: 'webhook' | 'enter' | 'none'; id?: string };
  const picks: Pick[] = [
    ...store
      .list()
      .filter((webhook) => webhook.secretName)
      .map((webhook) => ({
        label: `$(key) Secret of ${webhook.name}`,
        description: webhook.secretName,
        choice: 'webhook' as const,
        id: webhook.id,
      })),
    { label: '$(edit) Enter a secret…', choice: 'enter' },
    { label: '$(circle-slash) Do not check signatures', choice: 'none' },
  ];
  const picked = await dialogs.pick(picks, { title: 'Start Local Receiver', placeHolder: 'Which secret should X-Service-Signature be checked against?' });
  if (!picked) return cancelled;
  if (picked.choice === 'none') return undefined;
  if (picked.choice === 'webhook') return (await store.credentials(picked.id!)).secret;
  const value = await dialogs.input({ title: 'Secret to check signatures against', password: true, ignoreFocusOut: true });
  return value === undefined ? cancelled : value;
}

/** A receiver is most useful as the endpoint of a webhook: offer to add one pointing at it. */
async function offerWebhook(dialogs: Dialogs, url: string, secret: string | undefined, store: WebhookStore): Promise<void> {
  const add = 'Add Webhook for It';
  const copy = 'Copy URL';
  const answer = await dialogs.choose(`The local receiver is listening. Send webhooks to ${url}: only this address is answered.`, { modal: false, severity: 'info' }, add, copy);
  if (answer === copy) await copyAndSay(url, "Copied the local receiver's address");
  if (answer !== add) return;
  const taken = new Set(store.list().map((webhook) => webhook.name));
  let name = 'local-receiver';
  for (let index = 2; taken.has(name); index++) name = `local-receiver-${index}`;
  // Called directly, not through the command: the command takes no secret value from its caller.
  await addWebhook(dialogs, store, { name, url, ...(secret ? { secretName: 'RECEIVER_SECRET', secretValue: secret } : {}) }, true);
}
