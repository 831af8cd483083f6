import * as vscode from 'vscode';
import { onFirstUse } from '../platform/host/lazy/onFirstUse';
import type { Services } from '../platform/host/services';
import type * as Alerts from '.';
import type { RegisteredViews } from '../training';
import type { WebhookStore } from '../webhooks';

/** After start-up, when the workspace folders are checked for a rules file: not during activation. */
const lookForRulesAfterMs = 3_000;

/**
 * Alert rules (`.rlstudio/alerts.json` in a workspace folder). Activation watches for the file and
 * looks for it a few seconds after start-up; the alerts (dist/alerts.js) load only when a folder
 * has one, or when the canary reports a drop. Returns that loader: the canary calls
 * `canaryDropped` on it.
 */
export function registerAlerts(services: Services, sidebar: () => RegisteredViews, webhooks: WebhookStore): () => Alerts.AlertsFeature {
  const alerts = onFirstUse('alerts', services.log, () => (require('.') as typeof Alerts).startAlerts(services, { sidebar, webhooks }));
  let loaded = false;
  const load = () => {
    loaded = true;
    return alerts();
  };
  const watcher = vscode.workspace.createFileSystemWatcher('**/.rlstudio/alerts.json');
  const changed = (uri: vscode.Uri) => {
    // Only a workspace folder's own file holds rules (the glob also matches deeper folders).
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    if (!folder || vscode.Uri.joinPath(folder.uri, '.rlstudio', 'alerts.json').toString() !== uri.toString()) return;
    // The first load reads every folder's file: this change among them.
    if (!loaded) load();
    else void alerts().fileChanged(uri);
  };
  const timer = setTimeout(() => void lookForRules(services, load), lookForRulesAfterMs);
  services.context.subscriptions.push(
    watcher,
    watcher.onDidCreate(changed),
    watcher.onDidChange(changed),
    watcher.onDidDelete((uri) => {
      if (loaded) void alerts().fileChanged(uri);
    }),
    { dispose: () => clearTimeout(timer) },
  );
  return load;
}

async function lookForRules(services: Services, load: () => unknown): Promise<void> {
  for (const folder of (vscode.workspace.workspaceFolders ?? []).slice(0, 50)) {
    try {
      await vscode.workspace.fs.stat(vscode.Uri.joinPath(folder.uri, '.rlstudio', 'alerts.json'));
      load();
      return;
    } catch {
      // No rules file in this folder.
    }
  }
  services.log.info('Alert rules: no workspace folder has .rlstudio/alerts.json.');
}
