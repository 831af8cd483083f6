import type { Services } from './platform/host/services';
import type { Settings } from './platform/host/settings';
import { reviewSnapshot } from './platform/trust/workspaceEndpoints';
import type { Dialogs } from './platform/host/dialogs';
import type { RegisteredViews } from './training/activation';
import { errorMessage } from './platform/client/errorMessage';
import type { RolloutEditorProvider } from './rollouts/host/rolloutEditorProvider';
import type { AgentFeature } from './agent';
import type { EvalsFeature } from './evals';
import type { LocalRunsFeature } from './localRuns';
import type { AlertsFeature } from './alerts';
import type { TaskRunsFeature } from './taskRuns';

/**
 * What activate() returns while VS Code runs the extension's own tests (ExtensionMode.Test), and
 * only then: in a normal install activate() returns nothing, so no other extension can reach the
 * services, the secret storage or the dialogs through it.
 */
export interface RlStudioTestApi {
  /** The sidebar's providers and services (reading this loads the sidebar). */
  readonly views: RegisteredViews;
  /** The rollout inspector's editor provider, with the pages open now (reading this loads the inspector). */
  readonly rollouts: RolloutEditorProvider;
  /**
   * The language-model tools as VS Code calls them, and the @rlstudio participant's handler (reading
   * this loads them): the tests call a costly tool's prepareInvocation and invoke directly, since
   * outside a chat VS Code asks for its confirmation in a workbench dialog no extension test can answer.
   */
  readonly agent: AgentFeature;
  /** Checkpoint evaluation: its runs and the report editor, with the reports open now (reading this loads it). */
  readonly evals: EvalsFeature;
  /** Local Runs: the tree, the run views open now and the followed models' links (reading this loads it). */
  readonly localRuns: LocalRunsFeature;
  /** Alert rules: when the rules files were read, and the canary's entry (reading this loads them). */
  readonly alerts: AlertsFeature;
  /** Training from task files: the runs going and the task files' diagnostics (reading this loads it). */
  readonly taskRuns: TaskRunsFeature;
  /** The extension's dialogs: the tests queue answers with dialogs.answerNext(). */
  readonly dialogs: Dialogs;
  /** Recent lines of the RL Studio log channel, newest last (already redacted). */
  recentLogLines(): string[];
  /** Everything the extension keeps in globalState and workspaceState. */
  storedState(): Record<string, unknown>;
  /** The settings in use, and the workspace values waiting for approval or refused. */
  settingsInUse(): { settings: Settings; pending: string[]; refused: string[] };
  /** Disposes everything the extension registered, in the order VS Code does when turning it off. */
  disposeAll(): void;
}

export function createTestApi(
  services: Services,
  views: () => RegisteredViews,
  rollouts: () => RolloutEditorProvider,
  agent: () => AgentFeature,
  evals: () => EvalsFeature,
  localRuns: () => LocalRunsFeature,
  alerts: () => AlertsFeature,
  taskRuns: () => TaskRunsFeature,
): RlStudioTestApi | undefined {
  if (!services.testMode) return undefined;
  const { globalState, workspaceState, subscriptions } = services.context;
  return {
    get views() {
      return views();
    },
    get rollouts() {
      return rollouts();
    },
    get agent() {
      return agent();
    },
    get localRuns() {
      return localRuns();
    },
    get evals() {
      return evals();
    },
    get alerts() {
      return alerts();
    },
    get taskRuns() {
      return taskRuns();
    },
    dialogs: services.dialogs,
    recentLogLines: () => services.log.recentLines(),
    storedState: () => {
      const state: Record<string, unknown> = {};
      for (const key of globalState.keys()) state[`global:${key}`] = globalState.get(key);
      for (const key of workspaceState.keys()) state[`workspace:${key}`] = workspaceState.get(key);
      return state;
    },
    settingsInUse: () => ({ settings: { ...services.settings.current }, ...reviewSnapshot(services.settings.review) }),
    disposeAll: () => {
      for (const subscription of subscriptions.splice(0)) {
        try {
          subscription.dispose();
        } catch (error) {
          services.log.warn(`disposing: ${errorMessage(error)}`);
        }
      }
    },
  };
}
