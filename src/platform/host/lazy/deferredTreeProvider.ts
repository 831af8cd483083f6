import type * as vscode from 'vscode';
import { RelayedEvent } from './relayedEvent';

/**
 * Stands in for a tree's data provider while its feature is not loaded: a view must have its
 * provider from activation, but the real one is only needed when the view first asks for its
 * children. `load` loads the feature, which attaches the real provider.
 */
export class DeferredTreeProvider<T> implements vscode.TreeDataProvider<T>, vscode.Disposable {
  private readonly changed = new RelayedEvent<T | T[] | undefined | null | void>();
  readonly onDidChangeTreeData = this.changed.event;
  private real: vscode.TreeDataProvider<T> | undefined;

  constructor(private readonly load: () => unknown) {}

  attach(real: vscode.TreeDataProvider<T>): void {
    this.real = real;
    if (real.onDidChangeTreeData) this.changed.connect(real.onDidChangeTreeData);
  }

  getChildren(element?: T): vscode.ProviderResult<T[]> {
    return this.provider().getChildren(element);
  }

  getTreeItem(element: T): vscode.TreeItem | Thenable<vscode.TreeItem> {
    return this.provider().getTreeItem(element);
  }

  getParent(element: T): vscode.ProviderResult<T> {
    return this.provider().getParent?.(element);
  }

  dispose(): void {
    this.changed.dispose();
  }

  private provider(): vscode.TreeDataProvider<T> {
    if (!this.real) this.load();
    if (!this.real) throw new Error('the tree provider was not attached by its feature');
    return this.real;
  }
}
