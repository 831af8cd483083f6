import * as vscode from 'vscode';
import { validateEndpointUrl, validateSecretName, validateWebhookName, type Webhook } from '../../webhook/model';
import type { Services } from '../services';
import type { WebhookNode } from './webhooksTree';
import type { WebhookStore } from './webhookStore';

/** Fields given to "Add Webhook" by a caller (a code lens, a test) instead of asking for them. */
export interface WebhookDraft {
  name?: string;
  url?: string;
  team?: string;
  accessToken?: string;
  secretName?: string;
  secretValue?: string;
}

/** The webhook a command is about: a tree node, an id, or one picked from the list. */
export async function resolveWebhook(store: WebhookStore, target: unknown, title: string): Promise<Webhook | undefined> {
  if (typeof target === 'string') return store.get(target);
  if (target && typeof target === 'object' && (target as WebhookNode).type === 'webhook') return store.get((target as { webhook: Webhook }).webhook.id);
  const webhooks = store.list();
  if (webhooks.length === 0) {
    const add = 'Add Webhook';
    if ((await vscode.window.showInformationMessage('There are no webhooks yet.', add)) === add) {
      const id = await vscode.commands.executeCommand<string | undefined>('rlStudio.webhook.add');
      return id ? store.get(id) : undefined;
    }
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(webhooks.map((webhook) => ({ label: webhook.name, description: webhook.url, webhook })), { title });
  return picked?.webhook;
}

export function registerWebhookCommands(services: Services, store: WebhookStore): void {
  services.registerCommand('rlStudio.webhook.add', async (draft?: WebhookDraft) => {
    const given = draft && typeof draft === 'object' && !('type' in draft) ? draft : {};
    const complete = given.name !== undefined && given.url !== undefined;
    const name = complete ? given.name : await vscode.window.showInputBox({
      title: 'Add Webhook (1/4): name',
      value: given.name,
      prompt: 'The webhook\'s name, as automations refer to it',
      validateInput: (value) => validateWebhookName(value, store.list()),
    });
    if (name === undefined) return undefined;
    const nameProblem = validateWebhookName(name, store.list());
    if (nameProblem) throw new Error(nameProblem);
    const url = complete ? given.url : await vscode.window.showInputBox({
      title: 'Add Webhook (2/4): endpoint URL',
      prompt: 'The address that receives the POST requests',
      placeHolder: 'https://example.com/hooks/deploy',
      validateInput: validateEndpointUrl,
    });
    if (url === undefined) return undefined;
    const urlProblem = validateEndpointUrl(url);
    if (urlProblem) throw new Error(urlProblem);
    const accessToken = complete ? given.accessToken : await vscode.window.showInputBox({
      title: 'Add Webhook (3/4): access token (optional)',
      prompt: 'Sent as "Authorization: Bearer <token>" and available as ${ACCESS_TOKEN}. Leave empty for none.',
      password: true,
      ignoreFocusOut: true,
    });
    if (accessToken === undefined) return undefined;
    let secret: { name: string; value: string } | undefined;
    if (complete) {
      if (given.secretName) secret = { name: given.secretName, value: given.secretValue ?? '' };
    } else {
      const secretName = await vscode.window.showInputBox({
        title: 'Add Webhook (4/4): secret name (optional)',
        prompt: 'Payloads reference the secret as ${NAME}; it also signs each request (X-Service-Signature). Leave empty for none.',
        validateInput: (value) => (value.trim() === '' ? undefined : validateSecretName(value)),
      });
      if (secretName === undefined) return undefined;
      if (secretName.trim()) {
        const value = await vscode.window.showInputBox({ title: `Value of the secret ${secretName.trim()}`, password: true, ignoreFocusOut: true });
        if (value === undefined) return undefined;
        secret = { name: secretName.trim(), value };
      }
    }
    if (secret) {
      const problem = validateSecretName(secret.name);
      if (problem) throw new Error(problem);
    }
    const webhook = await store.add({ name, url, team: given.team }, { accessToken: accessToken || undefined, secret });
    return webhook.id;
  });

  services.registerCommand('rlStudio.webhook.edit', async (target?: unknown) => {
    const webhook = await resolveWebhook(store, target, 'Edit which webhook?');
    if (!webhook) return;
    type Pick = vscode.QuickPickItem & { field: 'name' | 'url' | 'team' | 'token' | 'secret' };
    const picks: Pick[] = [
      { label: 'Name', description: webhook.name, field: 'name' },
      { label: 'Endpoint URL', description: webhook.url, field: 'url' },
      { label: 'Team', description: webhook.team ?? '(none)', field: 'team' },
      { label: 'Access token', description: webhook.hasAccessToken ? 'set' : 'none', field: 'token' },
      { label: 'Secret', description: webhook.secretName ?? 'none', field: 'secret' },
    ];
    const picked = await vscode.window.showQuickPick(picks, { title: `Edit webhook ${webhook.name}` });
    if (!picked) return;
    if (picked.field === 'token') return vscode.commands.executeCommand('rlStudio.webhook.setAccessToken', webhook.id);
    if (picked.field === 'secret') return vscode.commands.executeCommand('rlStudio.webhook.setSecret', webhook.id);
    const validate = picked.field === 'name'
      ? (value: string) => validateWebhookName(value, store.list(), webhook.id)
      : picked.field === 'url' ? validateEndpointUrl : () => undefined;
    const value = await vscode.window.showInputBox({ title: `${picked.label} of ${webhook.name}`, value: picked.field === 'team' ? webhook.team ?? '' : picked.description, validateInput: validate });
    if (value === undefined) return;
    await store.update(webhook.id, { [picked.field]: value.trim() });
  });

  services.registerCommand('rlStudio.webhook.remove', async (target?: unknown, confirmed?: boolean) => {
    const webhook = await resolveWebhook(store, target, 'Remove which webhook?');
    if (!webhook) return false;
    const remove = 'Remove';
    if (confirmed !== true && (await vscode.window.showWarningMessage(`Remove the webhook "${webhook.name}" and its stored token and secret?`, { modal: true }, remove)) !== remove) return false;
    await store.remove(webhook.id);
    return true;
  });

  services.registerCommand('rlStudio.webhook.setAccessToken', async (target?: unknown, value?: string) => {
    const webhook = await resolveWebhook(store, target, 'Set the access token of which webhook?');
    if (!webhook) return;
    const token = value ?? (await vscode.window.showInputBox({
      title: `Access token of ${webhook.name}`,
      prompt: webhook.hasAccessToken ? 'Replaces the current token (a webhook has at most one).' : 'Sent as "Authorization: Bearer <token>".',
      password: true,
      ignoreFocusOut: true,
    }));
    if (!token) return;
    await store.setAccessToken(webhook.id, token);
  });

  services.registerCommand('rlStudio.webhook.removeAccessToken', async (target?: unknown) => {
    const webhook = await resolveWebhook(store, target, 'Remove the access token of which webhook?');
    if (webhook) await store.setAccessToken(webhook.id, undefined);
  });

  services.registerCommand('rlStudio.webhook.setSecret', async (target?: unknown, name?: string, value?: string) => {
    const webhook = await resolveWebhook(store, target, 'Set the secret of which webhook?');
    if (!webhook) return;
    const secretName = name ?? (await vscode.window.showInputBox({
      title: `Secret of ${webhook.name}: name`,
      value: webhook.secretName,
      prompt: webhook.secretName ? 'Replaces the current secret (a webhook has at most one).' : 'Payloads reference it as ${NAME}.',
      validateInput: validateSecretName,
    }));
    if (!secretName) return;
    const problem = validateSecretName(secretName);
    if (problem) throw new Error(problem);
    const secretValue = value ?? (await vscode.window.showInputBox({ title: `Value of the secret ${secretName}`, password: true, ignoreFocusOut: true }));
    if (secretValue === undefined) return;
    await store.setSecret(webhook.id, secretName, secretValue);
  });

  services.registerCommand('rlStudio.webhook.removeSecret', async (target?: unknown) => {
    const webhook = await resolveWebhook(store, target, 'Remove the secret of which webhook?');
    if (webhook) await store.setSecret(webhook.id, undefined);
  });

  services.registerCommand('rlStudio.webhook.copyUrl', async (target?: unknown) => {
    const webhook = await resolveWebhook(store, target, 'Copy the endpoint of which webhook?');
    if (webhook) await vscode.env.clipboard.writeText(webhook.url);
  });
}
