import * as vscode from 'vscode';
import { ContextKeys, setContext } from '../../platform/host/contextKeys';
import { endpointForDisplay, endpointSecrets } from '../model/endpoint';
import type { Webhook, WebhookCredentials } from '../model/model';

const listKey = 'rlStudio.webhooks';

/** What global state holds per webhook. `url` only in entries written before URLs moved to secret storage. */
type StoredWebhook = Omit<Webhook, 'endpoint'> & { endpoint?: string; url?: string };

/**
 * The user's team webhooks. Names and the masked endpoints live in global state (a webhook belongs
 * to a team, not to a workspace); the endpoint URL, access token and secret values live only in
 * secret storage, since a hook URL is as good as a token. Everything the store reads or is given
 * from secret storage is passed to `revealed` first, so the log masks it from then on.
 */
export class WebhookStore implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  /** Moving URLs out of global state (entries from earlier versions); writes wait for it. */
  readonly migrated: Promise<void>;

  constructor(
    private readonly state: vscode.Memento,
    private readonly secrets: vscode.SecretStorage,
    private readonly revealed: (value: string) => void = () => undefined,
  ) {
    this.migrated = this.migrateUrls().catch(() => undefined);
  }

  /** The webhooks with their masked endpoints; never a URL. */
  list(): Webhook[] {
    return this.stored().map(({ url, ...webhook }) => ({ ...webhook, endpoint: webhook.endpoint ?? (url ? endpointForDisplay(url) : '') }));
  }

  get(id: string): Webhook | undefined {
    return this.list().find((webhook) => webhook.id === id);
  }

  /** The endpoint URL, from secret storage. */
  async url(id: string): Promise<string | undefined> {
    const legacy = this.stored().find((webhook) => webhook.id === id)?.url;
    const url = (await this.secrets.get(urlKey(id))) ?? legacy;
    if (url) this.revealUrl(url);
    return url;
  }

  async add(input: { name: string; url: string; team?: string }, credentials: { accessToken?: string; secret?: { name: string; value: string } }): Promise<Webhook> {
    await this.migrated;
    // node:crypto is required here, not at the top: loading it would add to every activation.
    const { randomUUID } = require('node:crypto') as typeof import('node:crypto');
    const url = input.url.trim();
    const webhook: StoredWebhook = { id: randomUUID(), name: input.name.trim(), endpoint: endpointForDisplay(url), hasAccessToken: false };
    if (input.team?.trim()) webhook.team = input.team.trim();
    this.revealUrl(url);
    await this.secrets.store(urlKey(webhook.id), url);
    await this.save([...this.stored(), webhook]);
    if (credentials.accessToken) await this.setAccessToken(webhook.id, credentials.accessToken);
    if (credentials.secret) await this.setSecret(webhook.id, credentials.secret.name, credentials.secret.value);
    return this.get(webhook.id)!;
  }

  async update(id: string, change: Partial<Pick<Webhook, 'name' | 'team'> & { url: string }>): Promise<void> {
    await this.migrated;
    const { url, ...rest } = change;
    let endpoint: string | undefined;
    if (url !== undefined) {
      const trimmed = url.trim();
      this.revealUrl(trimmed);
      await this.secrets.store(urlKey(id), trimmed);
      endpoint = endpointForDisplay(trimmed);
    }
    await this.save(
      this.stored().map((webhook) => {
        if (webhook.id !== id) return webhook;
        const next: StoredWebhook = { ...webhook, ...rest };
        if (endpoint !== undefined) next.endpoint = endpoint;
        if (!next.team) delete next.team;
        return next;
      }),
    );
  }

  async remove(id: string): Promise<void> {
    await this.migrated;
    await this.secrets.delete(tokenKey(id));
    await this.secrets.delete(secretKey(id));
    await this.secrets.delete(urlKey(id));
    await this.save(this.stored().filter((webhook) => webhook.id !== id));
  }

  /** At most one access token per webhook: setting one replaces the previous. */
  async setAccessToken(id: string, value: string | undefined): Promise<void> {
    await this.migrated;
    if (value) {
      this.revealed(value);
      await this.secrets.store(tokenKey(id), value);
    } else await this.secrets.delete(tokenKey(id));
    await this.patch(id, (webhook) => ({ ...webhook, hasAccessToken: Boolean(value) }));
  }

  /** At most one secret per webhook: setting one replaces the previous, name and value. */
  async setSecret(id: string, name: string | undefined, value?: string): Promise<void> {
    await this.migrated;
    if (name && value !== undefined) {
      this.revealed(value);
      await this.secrets.store(secretKey(id), value);
    } else await this.secrets.delete(secretKey(id));
    await this.patch(id, (webhook) => {
      const next = { ...webhook };
      if (name && value !== undefined) next.secretName = name.trim();
      else delete next.secretName;
      return next;
    });
  }

  async credentials(id: string): Promise<WebhookCredentials> {
    const webhook = this.get(id);
    const credentials: WebhookCredentials = {};
    if (webhook?.hasAccessToken) {
      const token = await this.secrets.get(tokenKey(id));
      if (token) {
        this.revealed(token);
        credentials.accessToken = token;
      }
    }
    if (webhook?.secretName) {
      const secret = await this.secrets.get(secretKey(id));
      if (secret !== undefined) {
        this.revealed(secret);
        credentials.secret = secret;
      }
    }
    return credentials;
  }

  dispose(): void {
    this.changed.dispose();
  }

  private stored(): StoredWebhook[] {
    const stored = this.state.get<StoredWebhook[]>(listKey, []);
    return Array.isArray(stored) ? stored.filter((webhook) => webhook && typeof webhook.id === 'string') : [];
  }

  private revealUrl(url: string): void {
    for (const piece of endpointSecrets(url)) this.revealed(piece);
  }

  /**
   * Earlier versions kept the URL in global state. Each one moves to secret storage and leaves a
   * masked endpoint behind; an entry whose URL could not be stored keeps it, to try again next time.
   */
  private async migrateUrls(): Promise<void> {
    const legacy = this.stored().filter((webhook) => typeof webhook.url === 'string');
    if (legacy.length === 0) return;
    const moved = new Map<string, string>();
    for (const webhook of legacy) {
      this.revealUrl(webhook.url!);
      try {
        await this.secrets.store(urlKey(webhook.id), webhook.url!);
        moved.set(webhook.id, endpointForDisplay(webhook.url!));
      } catch {
        // Secret storage is unavailable (no keyring): the URL stays where it was for now.
      }
    }
    if (moved.size === 0) return;
    // Read the list again: it may have changed while the secrets were written.
    await this.save(
      this.stored().map((webhook) => {
        const endpoint = moved.get(webhook.id);
        if (endpoint === undefined) return webhook;
        const { url: _url, ...rest } = webhook;
        return { ...rest, endpoint };
      }),
    );
  }

  private async patch(id: string, change: (webhook: StoredWebhook) => StoredWebhook): Promise<void> {
    await this.save(this.stored().map((webhook) => (webhook.id === id ? change(webhook) : webhook)));
  }

  private async save(webhooks: StoredWebhook[]): Promise<void> {
    await this.state.update(listKey, webhooks);
    setContext(ContextKeys.hasWebhooks, webhooks.length > 0);
    this.changed.fire();
  }
}

function urlKey(id: string): string {
  return `rlStudio.webhook.${id}.url`;
}

function tokenKey(id: string): string {
  return `rlStudio.webhook.${id}.accessToken`;
}

function secretKey(id: string): string {
  return `rlStudio.webhook.${id}.secret`;
}
