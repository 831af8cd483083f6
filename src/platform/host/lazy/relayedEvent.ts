import * as vscode from 'vscode';

/**
 * An event that must exist before the object that fires it is loaded (VS Code subscribes when a
 * provider is registered): it re-fires that object's event once connected to it.
 */
export class RelayedEvent<T> implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<T>();
  readonly event = this.emitter.event;
  private source: vscode.Disposable | undefined;

  connect(event: vscode.Event<T>): void {
    this.source?.dispose();
    this.source = event((value) => this.emitter.fire(value));
  }

  dispose(): void {
    this.source?.dispose();
    this.emitter.dispose();
  }
}
