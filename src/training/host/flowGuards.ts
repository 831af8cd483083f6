import * as vscode from 'vscode';
import type { Services } from '../../platform/host/services';
import { platformReadiness } from '../../platform/host/readiness';

/**
 * Checks before a flow asks its first question: a flow that needs the training API and an API key
 * says so at once, with the action that fixes it, instead of failing after five prompts.
 */
export async function readyForTraining(services: Services): Promise<boolean> {
  const readiness = await platformReadiness(services, ['training']);
  if (!readiness.endpoints) {
    offer(services, 'Set the training API address first.', 'Configure Endpoints', 'rlStudio.configure');
    return false;
  }
  if (!readiness.signedIn) {
    offer(services, 'Sign in with your platform API key first.', 'Sign In', 'rlStudio.signIn');
    return false;
  }
  return true;
}

/** An error message with the action that fixes it; not awaited, so the command ends at once. */
function offer(services: Services, message: string, action: string, command: string): void {
  services.dialogs.error(message, { title: action, run: () => vscode.commands.executeCommand(command) });
}

/** Runs work with a notification that shows what is happening. */
export function withNotification<T>(title: string, work: () => Promise<T>): Promise<T> {
  return Promise.resolve(vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `RL Studio: ${title}` }, work));
}
