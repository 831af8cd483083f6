import * as vscode from 'vscode';

const apiKeySecret = 'rlStudio.apiKey';

/**
 * The platform API key, kept only in VS Code's SecretStorage. The value is cached in memory for
 * the client's credentials provider; changes made in another window arrive through the secret
 * storage's change event and refresh the cache.
 */
export class CredentialStore implements vscode.Disposable {
  private cached: string | undefined;
  private loaded: Promise<void>;
  private readonly changed = new vscode.EventEmitter<boolean>();
  /** Fires with the new signed-in state whenever the key is set, changed or removed. */
  readonly onDidChange = this.changed.event;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly secrets: vscode.SecretStorage) {
    this.loaded = this.reload();
    this.subscription = secrets.onDidChange((event) => {
      if (event.key !== apiKeySecret) return;
      this.loaded = this.reload().then(() => this.changed.fire(this.cached !== undefined));
    });
  }

  async getApiKey(): Promise<string | undefined> {
    await this.loaded;
    return this.cached;
  }

  async isSignedIn(): Promise<boolean> {
    return (await this.getApiKey()) !== undefined;
  }

  async setApiKey(key: string): Promise<void> {
    await this.secrets.store(apiKeySecret, key);
    this.cached = key;
  }

  async clear(): Promise<void> {
    await this.secrets.delete(apiKeySecret);
    this.cached = undefined;
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }

  private async reload(): Promise<void> {
    const value = await this.secrets.get(apiKeySecret);
    this.cached = value && value.trim() !== '' ? value : undefined;
  }
}
