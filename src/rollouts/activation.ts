import * as vscode from 'vscode';
import { onFirstUse } from '../platform/host/lazy/onFirstUse';
import type { Services } from '../platform/host/services';
import type { RegisteredViews } from '../training';
import type { RolloutDocument } from './host/rolloutDocument';
import type { RolloutEditorProvider } from './host/rolloutEditorProvider';
import type * as RolloutsFeature from '.';
import { rolloutsOptionViewType, rolloutsViewType, rolloutsViewTypes } from './protocol';

/**
 * What must exist from activation on for the rollout inspector: its custom editors and the two
 * commands that switch between it and the text editor. The inspector itself (dist/rollouts.js)
 * loads when the first rollout file opens in it. `sidebar` loads the sidebar, which creates jobs
 * and logs groups for the inspector's actions. Returns the inspector's loader.
 */
export function registerRollouts(services: Services, sidebar: () => RegisteredViews): () => RolloutEditorProvider {
  const feature = onFirstUse('rollouts', services.log, () => require('.') as typeof RolloutsFeature);
  const inspector = onFirstUse('rollout inspector', services.log, () => feature().startRollouts(services, sidebar));
  const provider: vscode.CustomReadonlyEditorProvider = {
    openCustomDocument: (uri) => inspector().openCustomDocument(uri),
    resolveCustomEditor: (document, panel) => inspector().resolveCustomEditor(document as RolloutDocument, panel),
  };
  for (const viewType of rolloutsViewTypes) {
    // Not kept alive when hidden: the page asks for the file's state again when shown, and keeps its place in its webview state.
    services.context.subscriptions.push(vscode.window.registerCustomEditorProvider(viewType, provider, { supportsMultipleEditorsPerDocument: true }));
  }

  services.registerCommand('rlStudio.openRolloutInspector', async (given?: unknown) => {
    const uri = given instanceof vscode.Uri ? given : vscode.window.activeTextEditor?.document.uri;
    if (!uri) {
      services.dialogs.info('Open a .jsonl or .json file of trajectory groups, or a .parquet trajectory log, first, then run this command again.');
      return;
    }
    const viewType = /\.trajectories\.jsonl?$|\.parquet$/i.test(uri.path) ? rolloutsViewType : rolloutsOptionViewType;
    await vscode.commands.executeCommand('vscode.openWith', uri, viewType);
  });

  services.registerCommand('rlStudio.openRolloutsAsText', async (given?: unknown) => {
    const uri = given instanceof vscode.Uri ? given : activeCustomEditorUri();
    // The inspector is a Parquet log's default editor: VS Code has no text view of one to go back to.
    if (uri && /\.parquet$/i.test(uri.path)) {
      services.dialogs.info('A Parquet trajectory log has no text view: use Open With… to choose another editor for it.');
      return;
    }
    if (uri) await vscode.commands.executeCommand('vscode.openWith', uri, 'default');
  });
  // Re-scoring loads the rollouts bundle (the inspector's models and reader) on its first use.
  services.registerCommand('rlStudio.tryReward', async (given?: unknown) => feature().tryReward(services, given, inspector));
  return inspector;
}

/** The file of the active tab when it is shown in the inspector. */
function activeCustomEditorUri(): vscode.Uri | undefined {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  return input instanceof vscode.TabInputCustom && (rolloutsViewTypes as readonly string[]).includes(input.viewType) ? input.uri : undefined;
}
