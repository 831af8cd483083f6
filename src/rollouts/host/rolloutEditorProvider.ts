import * as vscode from 'vscode';
import type { Services } from '../../platform/host/services';
import type { RegisteredViews } from '../../training';
import { RolloutDocument } from './rolloutDocument';
import { RolloutPanel } from './rolloutPanel';
import { RewardTrialPanel } from './rewardTrialPanel';

/**
 * The rollout inspector: a read-only custom editor. The file is read once per document, however
 * many editors show it; each editor's page talks to it through its own channel.
 */
export class RolloutEditorProvider implements vscode.CustomReadonlyEditorProvider<RolloutDocument> {
  /** Pages open now, for the extension's tests. */
  readonly panels = new Set<RolloutPanel>();
  /** Reward trials open now (Try a Reward), for the extension's tests. */
  readonly rewardTrials: ReadonlySet<RewardTrialPanel> = RewardTrialPanel.open;

  constructor(
    private readonly services: Services,
    private readonly sidebar: () => RegisteredViews,
  ) {}

  openCustomDocument(uri: vscode.Uri): RolloutDocument {
    return new RolloutDocument(uri, this.services);
  }

  resolveCustomEditor(document: RolloutDocument, panel: vscode.WebviewPanel): void {
    const page = new RolloutPanel(this.services, document, panel, this.sidebar);
    this.panels.add(page);
    panel.onDidDispose(() => this.panels.delete(page));
  }
}
