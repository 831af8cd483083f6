import * as vscode from 'vscode';
import type * as ReceivedReport from '../../webhook/receivedReport';
import type * as Receiver from '../../webhook/receiver';
import type { LocalReceiver, ReceivedRequest } from '../../webhook/receiver';

// node:http and the receiver load when a receiver is first started, not at activation.
const receiverModule = (): typeof Receiver => require('../../webhook/receiver') as typeof Receiver;
const reportModule = (): typeof ReceivedReport => require('../../webhook/receivedReport') as typeof ReceivedReport;

/** Runs at most one local receiver and shows what it gets in an output channel and the status bar. */
export class ReceiverController implements vscode.Disposable {
  private receiver: LocalReceiver | undefined;
  private secretGiven = false;
  private channel: vscode.OutputChannel | undefined;
  private statusItem: vscode.StatusBarItem | undefined;
  private stopListening: (() => void) | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  get running(): LocalReceiver | undefined {
    return this.receiver;
  }

  get checksSignatures(): boolean {
    return this.secretGiven;
  }

  async start(options: { port?: number; secret?: string }): Promise<LocalReceiver> {
    await this.stop();
    const receiver = await receiverModule().startReceiver({ port: options.port ?? 0, secret: options.secret });
    this.receiver = receiver;
    this.secretGiven = Boolean(options.secret);
    const channel = (this.channel ??= vscode.window.createOutputChannel('RL Studio: Webhook Receiver'));
    channel.appendLine(`Listening on ${receiver.url} (127.0.0.1 only). ${this.secretGiven ? 'Signatures are checked against the secret you gave.' : 'Signatures are not checked: no secret given.'}`);
    this.stopListening = receiver.onRequest((request) => this.show(request));
    const status = (this.statusItem ??= vscode.window.createStatusBarItem('rlStudio.receiver', vscode.StatusBarAlignment.Left, 10));
    status.name = 'RL Studio Webhook Receiver';
    status.command = 'rlStudio.webhook.showReceiver';
    this.updateStatus();
    status.show();
    void vscode.commands.executeCommand('setContext', 'rlStudio.receiverRunning', true);
    this.changed.fire();
    return receiver;
  }

  async stop(): Promise<boolean> {
    const receiver = this.receiver;
    if (!receiver) return false;
    this.receiver = undefined;
    this.stopListening?.();
    await receiver.close();
    this.channel?.appendLine(`Stopped listening on ${receiver.url}.`);
    this.statusItem?.hide();
    void vscode.commands.executeCommand('setContext', 'rlStudio.receiverRunning', false);
    this.changed.fire();
    return true;
  }

  showLog(): void {
    this.channel?.show(true);
  }

  dispose(): void {
    void this.stop();
    this.channel?.dispose();
    this.statusItem?.dispose();
    this.changed.dispose();
  }

  private show(request: ReceivedRequest): void {
    this.channel?.appendLine('');
    this.channel?.appendLine(reportModule().formatReceivedRequest(request));
    if (request.sequence === 1) this.channel?.show(true);
    this.updateStatus(request);
    this.changed.fire();
  }

  private updateStatus(last?: ReceivedRequest): void {
    const receiver = this.receiver;
    if (!receiver || !this.statusItem) return;
    const count = receiver.requests.length;
    const icon = last?.signature === 'invalid' || last?.signature === 'missing' ? '$(warning)' : '$(radio-tower)';
    this.statusItem.text = `${icon} Receiver :${receiver.port} (${count})`;
    this.statusItem.tooltip = last
      ? `Local webhook receiver on ${receiver.url}\nLast request: ${reportModule().describeVerdict(last.signature)}\nClick to show the requests.`
      : `Local webhook receiver on ${receiver.url}\nClick to show the requests.`;
  }
}
