import * as vscode from 'vscode';
import { parseGroupQuery, parseGroupScope } from '../model/queryParams';
import { maxRowsPerPage } from '../model/inspectorModel';
import { RpcEndpoint, type Handlers } from '../../platform/pages/rpc';
import { isCount, ownValue, params, ProtocolError, type WireMessage } from '../../platform/pages/wire';
import { type RolloutHostEvent, type RolloutHostMethods, type RolloutPageEvent, type RolloutPageMethods } from '../protocol';
import type { Services } from '../../platform/host/services';
import type { RegisteredViews } from '../../training';
import { loadWebviewPage } from '../../platform/pages/host/panelOptions';
import { RolloutActions } from './rolloutActions';
import type { RolloutDocument } from './rolloutDocument';

type PageChannel = RpcEndpoint<RolloutPageMethods, RolloutHostMethods, RolloutHostEvent, RolloutPageEvent>;

/** Search progress is told to the page at most this often. */
const searchProgressEveryMs = 100;

/** How long a group asked to be shown is waited for while the file is read. */
const revealWaitMs = 60_000;

/**
 * One editor of a rollout file: its page, and the channel that answers the page's requests from
 * the document and pushes the document's changes to it. Everything the page sends is checked (it
 * shows text from the file, so it is not trusted).
 */
export class RolloutPanel {
  private readonly channel: PageChannel;
  private ready = false;
  private readonly subscriptions: (() => void)[] = [];
  private lastSearchProgress = 0;
  /** A group to open once the page is ready and the file has read it: where it starts, and until when it is waited for. */
  private pendingReveal: { line: number; until: number } | undefined;
  /** The last group the page was told to open from outside it, for the extension's tests. */
  revealed: number | undefined;
  readonly actions: RolloutActions;

  constructor(
    services: Services,
    readonly document: RolloutDocument,
    readonly panel: vscode.WebviewPanel,
    sidebar: () => RegisteredViews,
  ) {
    const file = document.file;
    this.actions = new RolloutActions(services, document, sidebar);
    this.channel = new RpcEndpoint({
      post: (message: WireMessage) => void panel.webview.postMessage(message),
      handlers: this.handlers(),
      onProtocolError: (problem) => services.log.warn(`rollout inspector page: ${problem}`),
    });
    loadWebviewPage(panel.webview, services.context.extensionUri, 'rollouts', file.state().fileName);
    const received = panel.webview.onDidReceiveMessage((message: unknown) => this.channel.receive(message));
    this.subscriptions.push(
      () => {
        received.dispose();
      },
      file.onDidChange((state) => {
        if (this.ready) this.channel.emit({ type: 'state', state });
        this.revealIfRead();
      }),
      file.onSearchProgress((text, bytesRead, totalBytes) => {
        const now = performance.now();
        if (!this.ready || (now - this.lastSearchProgress < searchProgressEveryMs && bytesRead < totalBytes)) return;
        this.lastSearchProgress = now;
        this.channel.emit({ type: 'search', text, bytesRead, totalBytes });
      }),
    );
    panel.onDidDispose(() => this.dispose());
  }

  private handlers(): Handlers<RolloutHostMethods> {
    const file = this.document.file;
    return {
      ready: () => {
        this.ready = true;
        // After the reply: the page draws the file's state first, then opens the group.
        setTimeout(() => this.revealIfRead(), 0);
        return file.state();
      },
      rows: async (raw) => {
        const record = params.object(raw);
        const query = parseGroupQuery(ownValue(record, 'query'));
        const start = countParam(record, 'start');
        const count = Math.min(countParam(record, 'count'), maxRowsPerPage);
        return file.rows(query, start, count);
      },
      group: (raw) => file.group(countParam(params.object(raw), 'index')),
      revealLine: async (raw) => {
        await this.actions.revealLine(countParam(params.object(raw), 'line'));
        return null;
      },
      reopenWith: async () => {
        await vscode.commands.executeCommand('workbench.action.reopenWithEditor', this.document.uri);
        return null;
      },
      copyTrajectory: async (raw) => {
        const record = params.object(raw);
        await this.actions.copyTrajectory(countParam(record, 'index'), countParam(record, 'position'));
        return null;
      },
      createJob: async (raw) => {
        await this.actions.createJob(parseGroupScope(ownValue(params.object(raw), 'scope')));
        return null;
      },
      logToModel: async (raw) => {
        await this.actions.logToModel(parseGroupScope(ownValue(params.object(raw), 'scope')));
        return null;
      },
      exportGroups: async (raw) => {
        await this.actions.exportGroups(parseGroupScope(ownValue(params.object(raw), 'scope')));
        return null;
      },
    };
  }

  /** Opens the group that starts at `line` (a text file's line, a Parquet log's first row), once the file has read it. */
  revealGroupAt(line: number): void {
    this.pendingReveal = { line, until: performance.now() + revealWaitMs };
    this.revealIfRead();
  }

  private revealIfRead(): void {
    const pending = this.pendingReveal;
    if (!pending || !this.ready) return;
    if (performance.now() > pending.until) {
      this.pendingReveal = undefined;
      return;
    }
    const index = groupIndexAtLine(this.document.file.groups, pending.line);
    if (index === undefined) return;
    this.pendingReveal = undefined;
    this.revealed = index;
    this.channel.emit({ type: 'reveal', index });
  }

  private dispose(): void {
    for (const unsubscribe of this.subscriptions) unsubscribe();
    this.channel.dispose();
  }
}

/** The position of the group that starts at `line` among groups in file order, or undefined. */
function groupIndexAtLine(groups: readonly { line: number }[], line: number): number | undefined {
  let low = 0;
  let high = groups.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const at = groups[middle]!.line;
    if (at === line) return middle;
    if (at < line) low = middle + 1;
    else high = middle - 1;
  }
  return undefined;
}

/** A position or a count the page sends: a whole number, never negative. */
function countParam(record: Record<string, unknown>, name: string): number {
  const value = ownValue(record, name);
  if (!isCount(value)) throw new ProtocolError(`${name} must be a whole number`);
  return value;
}
