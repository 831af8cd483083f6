import * as vscode from 'vscode';
import { ContextKeys, setContext } from '../../platform/host/contextKeys';
import type * as ReceivedReport from '../model/receivedReport';
import type * as Receiver from '../model/receiver';
import type { LocalReceiver, ReceivedRequest, Refusal } from '../model/receiver';

// node:http and the receiver load when a receiver is first started, not at activation.
const receiverModule = (): typeof Receiver => require('../model/receiver') as typeof Receiver;
const reportModule = (): typeof ReceivedReport => require('../model/receivedReport') as typeof ReceivedReport;

const channelName = 'RL Studio: Webhook Receiver';
/** Refused requests listed one by one in the log; after that they are only counted (a flood stays one line). */
const listedRefusals = 20;
/**
 * Characters written to the log before it is cleared and started again. The kept requests are
 * bounded in memory; the log would otherwise grow with every request for as long as VS Code runs.
 */
const maxLogChars = 8 * 1024 * 1024;
/** The status bar and the view follow a burst of requests at most this often. */
const refreshEveryMs = 250;

/** Runs at most one local receiver and shows what it gets in an output channel and the status bar. */
export class ReceiverController implements vscode.Disposable {
  private receiver: LocalReceiver | undefined;
  private secretGiven = false;
  private channel: vscode.OutputChannel | undefined;
  private statusItem: vscode.StatusBarItem | undefined;
  private stopListening: (() => void)[] = [];
  private refusalsListed = 0;
  private logChars = 0;
  private refreshTimer: NodeJS.Timeout | undefined;
  private lastRequest: ReceivedRequest | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  get running(): LocalReceiver | undefined {
    return this.receiver;
  }

  get checksSignatures(): boolean {
    return this.secretGiven;
  }

  /** "3 kept, 2 dropped, 5 refused", or undefined when no receiver runs. */
  get summary(): string | undefined {
    return this.receiver ? reportModule().describeReceiverState(this.receiver.stats()) : undefined;
  }

  async start(options: { port?: number; secret?: string }): Promise<LocalReceiver> {
    await this.stop();
    const receiver = await receiverModule().startReceiver({ port: options.port ?? 0, secret: options.secret });
    this.receiver = receiver;
    this.secretGiven = Boolean(options.secret);
    this.refusalsListed = 0;
    this.lastRequest = undefined;
    this.channel ??= vscode.window.createOutputChannel(channelName);
    this.write(this.startLine(receiver));
    this.stopListening = [receiver.onRequest((request) => this.show(request)), receiver.onRefused((refusal) => this.showRefusal(refusal))];
    const status = (this.statusItem ??= vscode.window.createStatusBarItem('rlStudio.receiver', vscode.StatusBarAlignment.Left, 10));
    status.name = 'RL Studio Webhook Receiver';
    status.command = 'rlStudio.webhook.showReceiver';
    this.updateStatus();
    status.show();
    setContext(ContextKeys.receiverRunning, true);
    this.changed.fire();
    return receiver;
  }

  async stop(): Promise<boolean> {
    const receiver = this.receiver;
    if (!receiver) return false;
    this.receiver = undefined;
    for (const stop of this.stopListening) stop();
    this.stopListening = [];
    clearTimeout(this.refreshTimer);
    this.refreshTimer = undefined;
    await receiver.close();
    this.write(`Stopped listening on port ${receiver.port}: ${reportModule().describeReceiverState(receiver.stats())}.`);
    this.statusItem?.hide();
    setContext(ContextKeys.receiverRunning, false);
    this.changed.fire();
    return true;
  }

  /** Notes a problem with how the receiver was started (a port setting out of range) in its log. */
  note(line: string): void {
    this.channel ??= vscode.window.createOutputChannel(channelName);
    this.write(line);
  }

  showLog(): void {
    this.channel?.show(true);
  }

  dispose(): void {
    // stop() finishes after this returns: it must find no channel or status item to write to.
    const { channel, statusItem } = this;
    this.channel = undefined;
    this.statusItem = undefined;
    void this.stop();
    channel?.dispose();
    statusItem?.dispose();
    this.changed.dispose();
  }

  private startLine(receiver: LocalReceiver): string {
    const signatures = this.secretGiven ? 'Signatures are checked against the secret you gave.' : 'Signatures are not checked: no secret given.';
    return `Listening on ${receiver.url} (127.0.0.1 only). Send webhooks to this exact address; other paths, other host names and web pages are refused. ${signatures}`;
  }

  private show(request: ReceivedRequest): void {
    const receiver = this.receiver;
    if (!receiver) return;
    this.write('');
    this.write(reportModule().formatReceivedRequest(request, receiver.secretsToMask()));
    if (request.sequence === 1) this.channel?.show(true);
    this.lastRequest = request;
    this.scheduleRefresh();
  }

  private showRefusal(refusal: Refusal): void {
    if (this.refusalsListed < listedRefusals) {
      this.refusalsListed++;
      this.write(reportModule().describeRefusal(refusal));
      if (this.refusalsListed === listedRefusals) this.write('Further refused requests are counted in the status bar, not listed.');
    }
    this.scheduleRefresh();
  }

  /** One status and view update for a burst of requests or refusals, not one per request. */
  private scheduleRefresh(): void {
    if (this.refreshTimer) return;
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = undefined;
      this.updateStatus(this.lastRequest);
      this.changed.fire();
    }, refreshEveryMs);
  }

  /** Appends to the log, starting it again (with the address) once it has grown past maxLogChars. */
  private write(text: string): void {
    const channel = this.channel;
    if (!channel) return;
    if (this.logChars + text.length > maxLogChars && this.receiver) {
      channel.clear();
      this.logChars = 0;
      this.write(this.startLine(this.receiver));
      this.write('Earlier requests were cleared from this log to keep it small.');
    }
    this.logChars += text.length + 1;
    channel.appendLine(text);
  }

  private updateStatus(last?: ReceivedRequest): void {
    const receiver = this.receiver;
    if (!receiver || !this.statusItem) return;
    const report = reportModule();
    const stats = receiver.stats();
    const icon = last?.signature === 'invalid' || last?.signature === 'missing' ? '$(warning)' : '$(radio-tower)';
    this.statusItem.text = `${icon} Receiver :${receiver.port} (${stats.kept})`;
    this.statusItem.tooltip = [
      `Local webhook receiver on ${receiver.url}`,
      report.describeReceiverState(stats),
      ...(stats.dropped > 0 ? [report.droppedExplanation] : []),
      ...(last ? [`Last request: ${report.describeVerdict(last.signature)}`] : []),
      'Click to show the requests.',
    ].join('\n');
  }
}
