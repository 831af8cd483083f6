/** What the webview keeps across reloads: ids, the draft and layout only. Never a credential. */
export interface PersistedViewState {
  conversationId?: string;
  draft?: string;
  settingsOpen?: boolean;
}

export interface WebviewApi {
  postMessage(message: unknown): void;
  getState(): PersistedViewState | undefined;
  setState(state: PersistedViewState): void;
}

declare function acquireVsCodeApi(): WebviewApi;

export function webviewApi(): WebviewApi {
  return acquireVsCodeApi();
}
