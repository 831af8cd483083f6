import * as vscode from 'vscode';

/**
 * Every context key RL Studio sets, declared once: the `when` clauses of package.json read them
 * (welcome views, menus, command enablement), and test/unit/platform/host/contextKeys.test.ts checks
 * that each one declared here is read there and each one read there is declared here.
 */
export const ContextKeys = {
  /** Both API addresses are set. */
  configured: 'rlStudio.configured',
  /** An API key is stored. */
  signedIn: 'rlStudio.signedIn',
  /** The workspace sets endpoint values the user has not allowed yet. */
  workspaceSettingsPending: 'rlStudio.workspaceSettingsPending',
  /**
   * The model catalogue cannot be read because the inference API does not answer (refused, no
   * route, timed out) and the Models view has nothing else to list: its welcome offers Retry,
   * Configure Endpoints and Show Log.
   */
  unreachable: 'rlStudio.unreachable',
  /** The platform answered 401 to the stored key. */
  keyRejected: 'rlStudio.keyRejected',
  modelsEmpty: 'rlStudio.modelsEmpty',
  jobsEmpty: 'rlStudio.jobsEmpty',
  /** At least one training model is listed: the Training Jobs welcome stops suggesting to create one. */
  hasTrainingModels: 'rlStudio.hasTrainingModels',
  /** The local webhook receiver is listening. */
  receiverRunning: 'rlStudio.receiverRunning',
  /** At least one webhook is stored. */
  hasWebhooks: 'rlStudio.hasWebhooks',
} as const;

export type ContextKey = (typeof ContextKeys)[keyof typeof ContextKeys];

/**
 * Sets a context key. Views call this on every refresh with the value they see; VS Code does
 * nothing when the value is the one it already holds, so no copy of the values is kept here (a
 * copy would outlive a window's keys in a test's fresh host and skip keys it never set).
 */
export function setContext(key: ContextKey, value: boolean): void {
  void vscode.commands.executeCommand('setContext', key, value);
}
