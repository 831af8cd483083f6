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

  /** Opens a file in the inspector beside, at the group that starts at `line`. */
  async revealGroup(uri: vscode.Uri, viewType: string, line: number): Promise<void> {
    await vscode.commands.executeCommand('vscode.openWith', uri, viewType, vscode.ViewColumn.Beside);
    const panels = [...this.panels].filter((panel) => panel.document.uri.toString() === uri.toString());
    // The page just shown (the active one), else any page of the file.
    (panels.find((candidate) => candidate.panel.active) ?? panels[0])?.revealGroupAt(line);
  }

  openCustomDocument(uri: vscode.Uri): RolloutDocument {
    return new RolloutDocument(uri, this.services);
  }

  resolveCustomEditor(document: RolloutDocument, panel: vscode.WebviewPanel): void {
    const page = new RolloutPanel(this.services, document, panel, this.sidebar);
    this.panels.add(page);
    panel.onDidDispose(() => this.panels.delete(page));
  }
}
