import * as vscode from 'vscode';
import type { Webhook, WebhookCredentials } from '../../webhook/model';

const listKey = 'rlStudio.webhooks';

/**
 * The user's team webhooks. Names and endpoints live in global state (a webhook belongs to a team,
 * not to a workspace); the access token and secret values live only in secret storage.
 */
export class WebhookStore implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  /** `revealed` hears every token and secret value that passes through, so the log can mask it. */
  constructor(
    private readonly state: vscode.Memento,
    private readonly secrets: vscode.SecretStorage,
    private readonly revealed: (value: string) => void = () => undefined,
  ) {}

  list(): Webhook[] {
    const stored = this.state.get<Webhook[]>(listKey, []);
    return Array.isArray(stored) ? stored : [];
  }

  get(id: string): Webhook | undefined {
    return this.list().find((webhook) => webhook.id === id);
  }

  async add(input: Omit<Webhook, 'id' | 'hasAccessToken' | 'secretName'>, credentials: { accessToken?: string; secret?: { name: string; value: string } }): Promise<Webhook> {
    // node:crypto is required here, not at the top: loading it would add to every activation.
    const { randomUUID } = require('node:crypto') as typeof import('node:crypto');
    const webhook: Webhook = { id: randomUUID(), name: input.name.trim(), url: input.url.trim(), hasAccessToken: false };
    if (input.team?.trim()) webhook.team = input.team.trim();
    await this.save([...this.list(), webhook]);
    if (credentials.accessToken) await this.setAccessToken(webhook.id, credentials.accessToken);
    if (credentials.secret) await this.setSecret(webhook.id, credentials.secret.name, credentials.secret.value);
    return this.get(webhook.id)!;
  }

  async update(id: string, change: Partial<Pick<Webhook, 'name' | 'url' | 'team'>>): Promise<void> {
    await this.save(this.list().map((webhook) => {
      if (webhook.id !== id) return webhook;
      const next = { ...webhook, ...change };
      if (!next.team) delete next.team;
      return next;
    }));
  }

  async remove(id: string): Promise<void> {
    await this.secrets.delete(tokenKey(id));
    await this.secrets.delete(secretKey(id));
    await this.save(this.list().filter((webhook) => webhook.id !== id));
  }

  /** At most one access token per webhook: setting one replaces the previous. */
  async setAccessToken(id: string, value: string | undefined): Promise<void> {
    if (value) {
      this.revealed(value);
      await this.secrets.store(tokenKey(id), value);
    } else await this.secrets.delete(tokenKey(id));
    await this.patch(id, (webhook) => ({ ...webhook, hasAccessToken: Boolean(value) }));
  }

  /** At most one secret per webhook: setting one replaces the previous, name and value. */
  async setSecret(id: string, name: string | undefined, value?: string): Promise<void> {
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

  private async patch(id: string, change: (webhook: Webhook) => Webhook): Promise<void> {
    await this.save(this.list().map((webhook) => (webhook.id === id ? change(webhook) : webhook)));
  }

  private async save(webhooks: Webhook[]): Promise<void> {
    await this.state.update(listKey, webhooks);
    void vscode.commands.executeCommand('setContext', 'rlStudio.hasWebhooks', webhooks.length > 0);
    this.changed.fire();
  }
}

function tokenKey(id: string): string {
  return `rlStudio.webhook.${id}.accessToken`;
}

function secretKey(id: string): string {
  return `rlStudio.webhook.${id}.secret`;
}
