import * as vscode from 'vscode';
import { validateEndpointUrl, validateSecretName, validateWebhookName, type Webhook } from '../model/model';
import type { Dialogs } from '../../platform/host/dialogs';
import type { Services } from '../../platform/host/services';
import { onlyFromTests } from '../../platform/host/testHooks';
import { isIssuedNode, type WebhookNode } from './webhooksTree';
import type { WebhookStore } from './webhookStore';
import { copyAndSay } from '../../platform/host/clipboard';

/**
 * Fields given to "Add Webhook" instead of asking for them. From any caller (a code lens, another
 * extension) the name, URL, team and secret name only fill in the boxes the user then goes through;
 * the token and secret value, and skipping the boxes, are for the extension itself and its tests.
 */
export interface WebhookDraft {
  name?: string;
  url?: string;
  team?: string;
  accessToken?: string;
  secretName?: string;
  secretValue?: string;
}

/** The webhook a command is about: a tree node, an id, or one picked from the list. */
export async function resolveWebhook(dialogs: Dialogs, store: WebhookStore, target: unknown, title: string): Promise<Webhook | undefined> {
  if (typeof target === 'string') return store.get(target);
  if (target && typeof target === 'object' && (target as WebhookNode).type === 'webhook') return store.get((target as { webhook: Webhook }).webhook.id);
  const webhooks = store.list();
  if (webhooks.length === 0) {
    const add = 'Add Webhook';
    if ((await dialogs.choose('There are no webhooks yet.', { modal: false, severity: 'info' }, add)) === add) {
      const id = await vscode.commands.executeCommand<string | undefined>('rlStudio.webhook.add');
      return id ? store.get(id) : undefined;
    }
    return undefined;
  }
  const picked = await dialogs.pick(
    webhooks.map((webhook) => ({ label: webhook.name, description: webhook.endpoint, webhook })),
    { title },
  );
  return picked?.webhook;
}

/** Only the string fields of a draft, whatever a caller passed. */
function draftOf(value: unknown): WebhookDraft {
  if (!value || typeof value !== 'object' || 'type' in value) return {};
  const draft: WebhookDraft = {};
  for (const field of ['name', 'url', 'team', 'accessToken', 'secretName', 'secretValue'] as const) {
    const given = (value as Record<string, unknown>)[field];
    if (typeof given === 'string') draft[field] = given;
  }
  return draft;
}

/** What any caller may fill in: no credential values. */
function prefillOnly(draft: WebhookDraft): WebhookDraft {
  const { accessToken: _token, secretValue: _value, ...rest } = draft;
  return rest;
}

/**
 * Adds a webhook. A `trusted` draft (from this extension's own code or tests) with a name and a URL
 * is taken as it is; anything else walks the user through every box, the draft only filling them in.
 * Returns the new webhook's id, or undefined when the user cancelled.
 */
export async function addWebhook(dialogs: Dialogs, store: WebhookStore, draft: WebhookDraft, trusted: boolean): Promise<string | undefined> {
  const complete = trusted && draft.name !== undefined && draft.url !== undefined;
  const name = complete
    ? draft.name
    : await dialogs.input({
        title: 'Add Webhook (1/4): name',
        value: draft.name,
        prompt: "The webhook's name, as automations refer to it",
        validateInput: (value) => validateWebhookName(value, store.list()),
      });
  if (name === undefined) return undefined;
  const nameProblem = validateWebhookName(name, store.list());
  if (nameProblem) throw new Error(nameProblem);
  const url = complete
    ? draft.url
    : await dialogs.input({
        title: 'Add Webhook (2/4): endpoint URL',
        value: draft.url,
        prompt: 'The address that receives the POST requests. It is kept in secret storage: hook URLs often carry a token.',
        placeHolder: 'https://example.com/hooks/deploy',
        validateInput: validateEndpointUrl,
        ignoreFocusOut: true,
      });
  if (url === undefined) return undefined;
  const urlProblem = validateEndpointUrl(url);
  if (urlProblem) throw new Error(urlProblem);
  const accessToken = complete
    ? (draft.accessToken ?? '')
    : await dialogs.input({
        title: 'Add Webhook (3/4): access token (optional)',
        prompt: 'Sent as "Authorization: Bearer <token>" and available as ${ACCESS_TOKEN}. Leave empty for none.',
        password: true,
        ignoreFocusOut: true,
      });
  if (accessToken === undefined) return undefined;
  let secret: { name: string; value: string } | undefined;
  if (complete) {
    if (draft.secretName) secret = { name: draft.secretName, value: draft.secretValue ?? '' };
  } else {
    const secretName = await dialogs.input({
      title: 'Add Webhook (4/4): secret name (optional)',
      value: draft.secretName,
      prompt: 'Payloads reference the secret as ${NAME}; it also signs each request (X-Service-Signature). Leave empty for none.',
      validateInput: (value) => (value.trim() === '' ? undefined : validateSecretName(value)),
    });
    if (secretName === undefined) return undefined;
    if (secretName.trim()) {
      const given = trusted ? draft.secretValue : undefined;
      const value = given ?? (await dialogs.input({ title: `Value of the secret ${secretName.trim()}`, password: true, ignoreFocusOut: true }));
      if (value === undefined) return undefined;
      secret = { name: secretName.trim(), value };
    }
  }
  if (secret) {
    const problem = validateSecretName(secret.name);
    if (problem) throw new Error(problem);
  }
  const webhook = await store.add({ name, url, team: draft.team }, { accessToken: accessToken || undefined, secret });
  return webhook.id;
}

export function registerWebhookCommands(services: Services, store: WebhookStore): void {
  const dialogs = services.dialogs;
  services.registerCommand('rlStudio.webhook.add', async (draft?: unknown) => {
    const given = draftOf(draft);
    const fromTests = onlyFromTests(services, given);
    return addWebhook(dialogs, store, fromTests ?? prefillOnly(given), fromTests !== undefined);
  });

  services.registerCommand('rlStudio.webhook.edit', async (target?: unknown) => {
    const webhook = await resolveWebhook(dialogs, store, target, 'Edit which webhook?');
    if (!webhook) return;
    type Pick = vscode.QuickPickItem & { field: 'name' | 'url' | 'team' | 'token' | 'secret' };
    const picks: Pick[] = [
      { label: 'Name', description: webhook.name, field: 'name' },
      { label: 'Endpoint URL', description: webhook.endpoint, field: 'url' },
      { label: 'Team', description: webhook.team ?? '(none)', field: 'team' },
      { label: 'Access token', description: webhook.hasAccessToken ? 'set' : 'none', field: 'token' },
      { label: 'Secret', description: webhook.secretName ?? 'none', field: 'secret' },
    ];
    const picked = await dialogs.pick(picks, { title: `Edit webhook ${webhook.name}` });
    if (!picked) return;
    if (picked.field === 'token') return vscode.commands.executeCommand('rlStudio.webhook.setAccessToken', webhook.id);
    if (picked.field === 'secret') return vscode.commands.executeCommand('rlStudio.webhook.setSecret', webhook.id);
    const validate = picked.field === 'name' ? (value: string) => validateWebhookName(value, store.list(), webhook.id) : picked.field === 'url' ? validateEndpointUrl : () => undefined;
    // The user asked to edit the URL: the box shows it in full, read from secret storage.
    const current = picked.field === 'url' ? ((await store.url(webhook.id)) ?? '') : picked.field === 'team' ? (webhook.team ?? '') : webhook.name;
    const value = await dialogs.input({
      title: `${picked.label} of ${webhook.name}`,
      value: current,
      validateInput: validate,
      ignoreFocusOut: picked.field === 'url',
    });
    if (value === undefined) return;
    await store.update(webhook.id, { [picked.field]: value.trim() });
  });

  // Always asked, whoever runs it: the extension's tests answer through the dialogs service.
  services.registerCommand('rlStudio.webhook.remove', async (target?: unknown) => {
    const webhook = await resolveWebhook(dialogs, store, target, 'Remove which webhook?');
    if (!webhook) return false;
    const confirmed = await dialogs.confirm(`Remove the webhook "${webhook.name}" (${webhook.endpoint}) and its stored URL, token and secret?`, 'This cannot be undone.', 'Remove');
    if (!confirmed) return false;
    await store.remove(webhook.id);
    return true;
  });

  services.registerCommand('rlStudio.webhook.setAccessToken', async (target?: unknown, value?: unknown) => {
    const webhook = await resolveWebhook(dialogs, store, target, 'Set the access token of which webhook?');
    if (!webhook) return;
    const given = onlyFromTests(services, value);
    const token =
      typeof given === 'string'
        ? given
        : await dialogs.input({
            title: `Access token of ${webhook.name}`,
            prompt: webhook.hasAccessToken ? 'Replaces the current token (a webhook has at most one).' : 'Sent as "Authorization: Bearer <token>".',
            password: true,
            ignoreFocusOut: true,
          });
    if (!token) return;
    await store.setAccessToken(webhook.id, token);
  });

  services.registerCommand('rlStudio.webhook.removeAccessToken', async (target?: unknown) => {
    const webhook = await resolveWebhook(dialogs, store, target, 'Remove the access token of which webhook?');
    if (webhook) await store.setAccessToken(webhook.id, undefined);
  });

  services.registerCommand('rlStudio.webhook.setSecret', async (target?: unknown, name?: unknown, value?: unknown) => {
    const webhook = await resolveWebhook(dialogs, store, target, 'Set the secret of which webhook?');
    if (!webhook) return;
    const givenName = onlyFromTests(services, name);
    const secretName =
      typeof givenName === 'string'
        ? givenName
        : await dialogs.input({
            title: `Secret of ${webhook.name}: name`,
            value: webhook.secretName,
            prompt: webhook.secretName ? 'Replaces the current secret (a webhook has at most one).' : 'Payloads reference it as ${NAME}.',
            validateInput: validateSecretName,
          });
    if (!secretName) return;
    const problem = validateSecretName(secretName);
    if (problem) throw new Error(problem);
    const givenValue = onlyFromTests(services, value);
    const secretValue = typeof givenValue === 'string' ? givenValue : await dialogs.input({ title: `Value of the secret ${secretName}`, password: true, ignoreFocusOut: true });
    if (secretValue === undefined) return;
    await store.setSecret(webhook.id, secretName, secretValue);
  });

  services.registerCommand('rlStudio.webhook.removeSecret', async (target?: unknown) => {
    const webhook = await resolveWebhook(dialogs, store, target, 'Remove the secret of which webhook?');
    if (webhook) await store.setSecret(webhook.id, undefined);
  });

  services.registerCommand('rlStudio.webhook.copyUrl', async (target?: unknown) => {
    // The clipboard is readable by every extension: only a click in the Webhooks view (a node the
    // tree handed out) or the user's own pick decides which URL lands there.
    const chosen = isIssuedNode(target) ? target : onlyFromTests(services, target);
    const webhook = await resolveWebhook(dialogs, store, chosen, 'Copy the endpoint of which webhook?');
    if (!webhook) return;
    const url = await store.url(webhook.id);
    if (!url) throw new Error(`The endpoint URL of "${webhook.name}" is not stored: edit the webhook to set it again.`);
    await copyAndSay(url, `Copied the endpoint URL of ${webhook.name}`);
  });
}
