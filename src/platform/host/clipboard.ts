import * as vscode from 'vscode';

/** How long a copy may take before RL Studio goes on without it. */
const copyTimeoutMs = 3_000;

/**
 * Puts text on the clipboard; true when it got there. In a browser (code-server, vscode.dev) the
 * clipboard may refuse a page without focus or wait on a permission, so a copy that fails or takes
 * longer than a few seconds is given up: what follows it (a notification saying what happened)
 * never waits on it, and says when the copy did not happen.
 */
export async function copyToClipboard(text: string): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const gaveUp = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), copyTimeoutMs)));
  try {
    // Settled either way, so a copy that fails after the wait was given up is not an unhandled rejection.
    return await Promise.race([
      Promise.resolve(vscode.env.clipboard.writeText(text)).then(
        () => true,
        () => false,
      ),
      gaveUp,
    ]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/** Copies text and says in the status bar for a few seconds what was copied, or that the clipboard refused it. */
export async function copyAndSay(text: string, copied: string, showMs = 3_000): Promise<boolean> {
  const done = await copyToClipboard(text);
  vscode.window.setStatusBarMessage(done ? `$(check) ${copied}` : '$(warning) The clipboard did not take the text: copy it by hand.', done ? showMs : 6_000);
  return done;
}
