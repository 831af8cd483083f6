/**
 * What VS Code gives a webview page: a channel to its panel and a little state that survives
 * the page being unloaded while hidden. Each page names its own `State`: ids and layout only,
 * never a credential.
 */
export interface WebviewApi<State> {
  postMessage(message: unknown): void;
  getState(): State | undefined;
  setState(state: State): void;
}

declare function acquireVsCodeApi<State>(): WebviewApi<State>;

/** The page's API; VS Code hands it out once per page load. */
export function webviewApi<State>(): WebviewApi<State> {
  return acquireVsCodeApi<State>();
}
