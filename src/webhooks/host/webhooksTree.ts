import * as vscode from 'vscode';
import type { Webhook } from '../model/model';
import { codeText, escapeMarkdown } from '../../platform/kit/markdownText';
import type { ReceiverController } from './receiverController';
import type { WebhookStore } from './webhookStore';

export type WebhookNode = { type: 'webhook'; webhook: Webhook } | { type: 'receiver' };

/**
 * The nodes this tree handed to VS Code. A command that acts on what the user clicked can tell such
 * a node from an object another extension made up to look like one.
 */
const issuedNodes = new WeakSet<object>();

export function isIssuedNode(value: unknown): value is WebhookNode {
  return typeof value === 'object' && value !== null && issuedNodes.has(value);
}

/** The Webhooks view: the team webhooks, plus the local receiver while it runs. */
export class WebhooksTreeProvider implements vscode.TreeDataProvider<WebhookNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<WebhookNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly store: WebhookStore,
    private readonly receiver: ReceiverController,
  ) {
    this.subscriptions = [store.onDidChange(() => this.refresh()), receiver.onDidChange(() => this.refresh())];
  }

  refresh(): void {
    this.changed.fire(undefined);
  }

  getChildren(element?: WebhookNode): WebhookNode[] {
    if (element) return [];
    const nodes: WebhookNode[] = this.store
      .list()
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((webhook) => ({ type: 'webhook', webhook }));
    if (this.receiver.running) nodes.push({ type: 'receiver' });
    for (const node of nodes) issuedNodes.add(node);
    return nodes;
  }

  getTreeItem(node: WebhookNode): vscode.TreeItem {
    if (node.type === 'receiver') {
      const running = this.receiver.running!;
      const item = new vscode.TreeItem('Local receiver', vscode.TreeItemCollapsibleState.None);
      item.description = `${running.url} · ${this.receiver.summary}`;
      item.iconPath = new vscode.ThemeIcon('radio-tower');
      item.tooltip = new vscode.MarkdownString(
        `Listening on \`${running.url}\`.\n\nSignatures are ${this.receiver.checksSignatures ? 'checked against the secret you gave' : 'not checked (no secret given)'}.`,
      );
      item.contextValue = 'receiver';
      item.command = { command: 'rlStudio.webhook.showReceiver', title: 'Show Received Requests' };
      return item;
    }
    const { webhook } = node;
    const item = new vscode.TreeItem(webhook.name, vscode.TreeItemCollapsibleState.None);
    item.id = `webhook:${webhook.id}`;
    item.description = webhook.endpoint;
    item.iconPath = new vscode.ThemeIcon('globe');
    const token = webhook.hasAccessToken ? 'an access token' : 'no access token';
    const secret = webhook.secretName ? `the secret ${codeText(webhook.secretName)}` : 'no secret';
    item.tooltip = new vscode.MarkdownString(
      `**${escapeMarkdown(webhook.name)}**${webhook.team ? ` (team ${escapeMarkdown(webhook.team)})` : ''}\n\n${escapeMarkdown(webhook.endpoint)}\n\nHas ${token} and ${secret}. The URL and the values are kept in secret storage.`,
    );
    // Space-joined state tokens, matched by menus with `viewItem =~ /hasToken/`.
    item.contextValue = ['webhook', webhook.hasAccessToken ? 'hasToken' : 'noToken', webhook.secretName ? 'hasSecret' : 'noSecret'].join(' ');
    return item;
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.changed.dispose();
  }
}
