import type * as vscode from 'vscode';
import type { Services } from './services';

/** What activate() returns: used by the integration tests and available to other extensions. */
export interface RlStudioApi {
  readonly views: { models: vscode.TreeDataProvider<unknown>; jobs: vscode.TreeDataProvider<unknown> };
  /** Recent lines of the RL Studio log channel, newest last (already redacted). */
  recentLogLines(): string[];
  /** Everything the extension keeps in globalState and workspaceState. */
  storedState(): Record<string, unknown>;
}

/** `views` loads the sidebar when the API first reads them. */
export function createApi(services: Services, views: () => RlStudioApi['views']): RlStudioApi {
  const { globalState, workspaceState } = services.context;
  return {
    get views() {
      return views();
    },
    recentLogLines: () => services.log.recentLines(),
    storedState: () => {
      const state: Record<string, unknown> = {};
      for (const key of globalState.keys()) state[`global:${key}`] = globalState.get(key);
      for (const key of workspaceState.keys()) state[`workspace:${key}`] = workspaceState.get(key);
      return state;
    },
  };
}
