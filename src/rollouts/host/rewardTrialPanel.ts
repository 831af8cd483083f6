import * as vscode from 'vscode';
import { panelOptions, loadWebviewPage } from '../../platform/pages/host/panelOptions';
import { RpcEndpoint, type Handlers } from '../../platform/pages/rpc';
import { isCount, ownValue, params, ProtocolError, type NoMethods, type WireMessage } from '../../platform/pages/wire';
import type { Services } from '../../platform/host/services';
import { rolloutsOptionViewType, rolloutsViewType, type RewardTrialHostMethods, type RewardTrialView } from '../protocol';

export const rewardTrialViewType = 'rlStudio.rewardTrial';

/** Opens a file in the rollout inspector at the group that starts at `line` (the inspector's editor provider does). */
export type RevealGroup = (uri: vscode.Uri, viewType: string, line: number) => Promise<void>;

type PageChannel = RpcEndpoint<NoMethods, RewardTrialHostMethods, never, never>;

/**
 * The page of one reward trial: the comparison is computed before the panel opens and held here;
 * the page asks for it when it (re)loads, and asks to open a group in the rollout inspector. The
 * page's requests are checked (it shows text from the file, so it is not trusted).
 */
export class RewardTrialPanel {
  /** Pages open now, for the extension's tests. */
  static readonly open = new Set<RewardTrialPanel>();
  private readonly channel: PageChannel;
  /** Times the page asked for the comparison (it does when it loads), for the extension's tests. */
  deliveries = 0;

  private constructor(
    services: Services,
    private readonly uri: vscode.Uri,
    readonly view: RewardTrialView,
    readonly panel: vscode.WebviewPanel,
    private readonly reveal: RevealGroup,
  ) {
    this.channel = new RpcEndpoint({
      post: (message: WireMessage) => void panel.webview.postMessage(message),
      handlers: this.handlers(),
      onProtocolError: (problem) => services.log.warn(`reward trial page: ${problem}`),
    });
    loadWebviewPage(panel.webview, services.context.extensionUri, 'rewardTrial', panel.title);
    const received = panel.webview.onDidReceiveMessage((message: unknown) => this.channel.receive(message));
    panel.onDidDispose(() => {
      received.dispose();
      this.channel.dispose();
      RewardTrialPanel.open.delete(this);
    });
  }

  static show(services: Services, uri: vscode.Uri, view: RewardTrialView, reveal: RevealGroup): RewardTrialPanel {
    const title = `Reward trial: ${view.fileName.slice(0, 60)}`;
    const panel = vscode.window.createWebviewPanel(rewardTrialViewType, title, vscode.ViewColumn.Active, panelOptions(services.context.extensionUri));
    const page = new RewardTrialPanel(services, uri, view, panel, reveal);
    RewardTrialPanel.open.add(page);
    return page;
  }

  private handlers(): Handlers<RewardTrialHostMethods> {
    return {
      ready: () => {
        this.deliveries++;
        return this.view;
      },
      openGroup: async (raw) => {
        const index = ownValue(params.object(raw), 'index');
        if (!isCount(index)) throw new ProtocolError('index must be a whole number');
        const group = this.view.result.groups.find((kept) => kept.index === index);
        if (!group) throw new ProtocolError('no such group in this comparison');
        const viewType = /\.trajectories\.jsonl?$|\.parquet$/i.test(this.uri.path) ? rolloutsViewType : rolloutsOptionViewType;
        // The group is found again by where it starts (a line, or a Parquet log's first row).
        await this.reveal(this.uri, viewType, group.line);
        return null;
      },
    };
  }
}
