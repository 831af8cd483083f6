/** What the adapter needs of a vscode.CancellationToken: typed by shape, so Node tests can hand it a stand-in. */
export interface CancellationTokenLike {
  readonly isCancellationRequested: boolean;
  onCancellationRequested(listener: () => unknown): { dispose(): unknown };
}

/** An AbortSignal that follows a token; `abort` stops the work from this side too; `dispose` drops the token listener. */
export interface CancellationSignal {
  readonly signal: AbortSignal;
  abort(): void;
  dispose(): void;
}

/**
 * The one bridge from VS Code's cancellation to the AbortSignal the client and the models take.
 * The signal also aborts with any of `alsoOn` (the extension's lifetime, for work that must stop
 * when it is turned off). The caller disposes it when the work ends: a token can outlive many
 * calls, and each would otherwise leave a listener on it.
 */
export function signalFor(token: CancellationTokenLike, ...alsoOn: AbortSignal[]): CancellationSignal {
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort();
  const subscription = token.onCancellationRequested(() => controller.abort());
  return {
    signal: alsoOn.length > 0 ? AbortSignal.any([controller.signal, ...alsoOn]) : controller.signal,
    abort: () => controller.abort(),
    dispose: () => void subscription.dispose(),
  };
}
