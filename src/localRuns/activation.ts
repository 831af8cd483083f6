import * as vscode from 'vscode';
import { DeferredTreeProvider } from '../platform/host/lazy/deferredTreeProvider';
import { onFirstUse } from '../platform/host/lazy/onFirstUse';
import type { Services } from '../platform/host/services';
import type * as LocalRunsModule from '.';
import type { LocalRunsNode } from './host/localRunsTree';
import { runViewType } from './protocol';

/**
 * What must exist from activation on for Local Runs: the view (its provider loads the feature when
 * it first shows its content), the run view's serializer and the commands. The rest
 * (dist/localRuns.js) loads on first use.
 */
export function registerLocalRuns(services: Services): () => LocalRunsModule.LocalRunsFeature {
  const feature = onFirstUse('local runs', services.log, () => {
    const started = (require('.') as typeof LocalRunsModule).startLocalRuns(services, view);
    tree.attach(started.tree);
    return started;
  });
  services.registerFeatureCommands('localRuns', feature);
  const tree = new DeferredTreeProvider<LocalRunsNode>(feature);
  const view = vscode.window.createTreeView<LocalRunsNode>('rlStudio.localRuns', { treeDataProvider: tree, showCollapseAll: true });
  services.context.subscriptions.push(
    tree,
    view,
    vscode.window.registerWebviewPanelSerializer(runViewType, {
      deserializeWebviewPanel: (panel, state: unknown) => feature().runs.restore(panel, state),
    }),
  );
  return feature;
}
