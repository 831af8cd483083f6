import * as vscode from 'vscode';
import { AlertEngine, type AlertContext } from './model/alertRules';
import { AlertActions } from './host/alertActions';
import { JobAlerts } from './host/jobAlerts';
import { AlertPermissions } from './host/permissions';
import { AlertRulesFiles } from './host/rulesFiles';
import type { Services } from '../platform/host/services';
import type { RegisteredViews } from '../training';
import type { WebhookStore } from '../webhooks';

/**
 * A canary's report that a checkpoint scored worse than the best one so far, beyond the noise of
 * its eval set: what the `{"canary": "drop"}` rules are told.
 */
export type CanaryDrop = AlertContext & {
  /** The model whose checkpoint was evaluated. */
  modelId: string;
  /** The checkpoint's model step (becomes `${step}`). */
  checkpointStep?: number;
  /** The checkpoint's canary score (becomes `${metric_value}`). */
  score?: number;
  /** The best score of an earlier checkpoint. */
  best?: number;
  /** The interval of the paired difference (this checkpoint minus the best), as the canary computed it. */
  interval?: readonly [number, number];
};

/** What the alerts offer the rest of the extension. */
export interface AlertsFeature {
  /**
   * Runs the `{"canary": "drop"}` rules for one drop (each drop fires them: the canary decides
   * what is a drop and reports it once). Returns at once; the actions run in the background, once
   * the rules files were read. With no rule for canary drops it does nothing.
   */
  canaryDropped(drop: CanaryDrop): void;
  /** A rules file appeared, changed or went: read it again. */
  fileChanged(uri: vscode.Uri): Promise<void>;
  /** Resolves once every workspace folder's rules file was read once. */
  readonly ready: Promise<void>;
}

export interface AlertsDependencies {
  /** The sidebar's job service and views (loading it starts following the remembered jobs). */
  sidebar: () => RegisteredViews;
  webhooks: WebhookStore;
}

/**
 * Entry of dist/alerts.js, loaded when a workspace folder has `.rlstudio/alerts.json` (or the
 * canary reports a drop): reads the rules, shows their problems on the files, and from then on
 * runs them against the followed jobs and the canary's reports.
 */
export function startAlerts(services: Services, dependencies: AlertsDependencies): AlertsFeature {
  const files = new AlertRulesFiles(services, dependencies.webhooks);
  const engine = new AlertEngine([]);
  const permissions = new AlertPermissions(services.context.workspaceState, services.dialogs);
  const actions = new AlertActions(services, files, dependencies.webhooks, permissions);
  let jobs: JobAlerts | undefined;
  const rulesChanged = () => {
    const rules = files.rules().map((entry) => entry.rule);
    engine.setRules(rules);
    // The job service is started only when a rule watches jobs.
    if (!jobs && rules.some((rule) => rule.when.kind !== 'canaryDrop')) {
      jobs = new JobAlerts(services, dependencies.sidebar(), engine, (firings) => actions.run(firings));
      services.context.subscriptions.push(jobs);
    }
  };
  services.context.subscriptions.push(files, permissions, files.onDidChange(rulesChanged));
  const ready = files.readAll();
  return {
    ready,
    fileChanged: (uri) => files.fileChanged(uri),
    canaryDropped: (drop) => {
      const context: AlertContext = { ...drop };
      if (drop.checkpointStep !== undefined) context.step = drop.checkpointStep;
      if (drop.score !== undefined) context.value = drop.score;
      context.metric ??= 'canary score';
      // A drop reported as the alerts load is judged by the rules once they are read.
      void ready.then(() => actions.run(engine.canaryDrop(context)));
    },
  };
}
