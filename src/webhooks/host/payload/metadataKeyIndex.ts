import * as vscode from 'vscode';
import type { PayloadDocumentKind } from '../../model/payload';
import { payloadCore } from './payloadCore';

const filePattern = '**/*.{payload,automation}.json';
const excluded = '**/{node_modules,.git,out,dist}/**';
const maxFiles = 500;
const maxFileBytes = 2 * 1024 * 1024;
/** Keys kept per file, and offered in all: completion lists them, so thousands must not flood it. */
const maxKeysPerFile = 200;
const maxKeys = 1000;

/**
 * The artifact metadata keys used across the workspace's payload and automation files, offered
 * after `${artifact_metadata.`. Built on first use in the background, then kept current from saves
 * and file events, so a completion request never waits for a scan.
 */
export class MetadataKeyIndex implements vscode.Disposable {
  private readonly keysByFile = new Map<string, string[]>();
  private started = false;
  private watcher: vscode.FileSystemWatcher | undefined;
  private readonly subscriptions: vscode.Disposable[] = [];

  keys(): string[] {
    this.start();
    const all = new Set<string>();
    for (const keys of this.keysByFile.values()) {
      for (const key of keys) {
        if (all.size >= maxKeys) return [...all];
        all.add(key);
      }
    }
    return [...all];
  }

  /** Resolves once the first scan is complete (tests and the first preview wait on it). */
  ready: Promise<void> = Promise.resolve();

  start(): void {
    if (this.started) return;
    this.started = true;
    this.ready = this.scan().catch(() => undefined);
    this.watcher = vscode.workspace.createFileSystemWatcher(filePattern);
    this.subscriptions.push(
      this.watcher,
      this.watcher.onDidCreate((uri) => void this.readFile(uri)),
      this.watcher.onDidChange((uri) => void this.readFile(uri)),
      this.watcher.onDidDelete((uri) => this.keysByFile.delete(uri.toString())),
      vscode.workspace.onDidSaveTextDocument((document) => this.readText(document.uri, document.getText())),
    );
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.keysByFile.clear();
  }

  private async scan(): Promise<void> {
    const files = await vscode.workspace.findFiles(filePattern, excluded, maxFiles);
    for (const uri of files) await this.readFile(uri);
  }

  private async readFile(uri: vscode.Uri): Promise<void> {
    try {
      const stat = await vscode.workspace.fs.stat(uri);
      if (stat.size > maxFileBytes) return;
      const bytes = await vscode.workspace.fs.readFile(uri);
      this.readText(uri, new TextDecoder('utf-8').decode(bytes));
    } catch {
      this.keysByFile.delete(uri.toString());
    }
  }

  private readText(uri: vscode.Uri, text: string): void {
    const kind: PayloadDocumentKind | undefined = /\.automation\.json$/i.test(uri.path) ? 'automation' : /\.payload\.json$/i.test(uri.path) ? 'payload' : undefined;
    if (!kind) return;
    const { analysePayload, metadataKeysIn } = payloadCore();
    this.keysByFile.set(uri.toString(), metadataKeysIn(analysePayload(text, kind)).slice(0, maxKeysPerFile));
  }
}
