import * as vscode from 'vscode';
import type { Services } from './services';
import { onlyFromTests } from './testHooks';

/** Sign in, sign out, endpoint configuration and the log: the commands every other feature relies on. */
export function registerAccountCommands(services: Services): void {
  // Another extension calling this command must not plant a key of its choosing: only the tests may pass one.
  services.registerCommand('rlStudio.signIn', (key?: unknown) => {
    const given = onlyFromTests(services, key);
    return signIn(services, typeof given === 'string' ? given : undefined);
  });
  services.registerCommand('rlStudio.signOut', () => signOut(services));
  services.registerCommand('rlStudio.configure', () => vscode.commands.executeCommand('workbench.action.openSettings', '@ext:rl-studio.rl-studio'));
  services.registerCommand('rlStudio.showLog', () => services.log.show());
}

/**
 * Asks for the API key with a password box (or takes it from the extension's tests), checks it
 * against the inference API in use when there is one, and keeps it in SecretStorage only.
 */
async function signIn(services: Services, given: string | undefined): Promise<boolean> {
  // The key is checked while the box is open: a refused key is said under what was typed, and the
  // person tries again there, rather than reading it in a notification once the box has gone.
  let verdict = 'unverified' as Verdict;
  const check = async (candidate: string): Promise<string | undefined> => {
    const key = candidate.trim();
    services.log.addSecret(key);
    verdict = await verifyKey(services, key);
    return verdict === 'rejected' ? 'The platform rejected this key (401). Check it and paste it again, or press Escape to cancel.' : undefined;
  };
  let key: string | undefined;
  if (given !== undefined) {
    key = given.trim();
    const refused = key ? await check(key) : undefined;
    if (refused) {
      services.dialogs.error('The platform rejected this API key (401). It was not saved.');
      return false;
    }
  } else {
    key = (await askForKey(services, check))?.trim();
  }
  if (!key) return false;
  await services.credentials.setApiKey(key);
  services.log.info(verdict === 'verified' ? 'signed in; the key was accepted by the inference API' : 'signed in; the key could not be checked now');
  if (verdict === 'unverified' && given === undefined) {
    services.dialogs.warn('API key saved. It could not be checked now: the platform did not answer. See the RL Studio log.');
  }
  return true;
}

async function askForKey(services: Services, accept: (value: string) => Promise<string | undefined>): Promise<string | undefined> {
  return services.dialogs.input({
    title: 'RL Studio: Sign In',
    prompt: "Your platform API key. It is checked, then kept in VS Code's secret storage and never written to settings or logs.",
    placeHolder: 'API key',
    password: true,
    ignoreFocusOut: true,
    validateInput: (value) => (value.trim() === '' ? 'Enter the API key' : /\s/.test(value.trim()) ? 'An API key has no spaces' : undefined),
    accept,
  });
}

type Verdict = 'verified' | 'rejected' | 'unverified';

/** A cheap authenticated call with the candidate key, before it replaces the stored one. */
async function verifyKey(services: Services, key: string): Promise<Verdict> {
  if (!services.settings.current.inferenceApiUrl) return 'unverified';
  const probe = await services.probeClient(key);
  try {
    await probe.inference.listModels();
    return 'verified';
  } catch (error) {
    const failure = services.describeFailure(error);
    services.log.warn(`API key check: ${failure.message}${failure.detail && failure.detail !== failure.message ? ` (${failure.detail})` : ''}`);
    return failure.kind === 'rejected' ? 'rejected' : 'unverified';
  } finally {
    void probe.close();
  }
}

async function signOut(services: Services): Promise<void> {
  await services.credentials.clear();
  services.log.info('signed out; the API key was removed from secret storage');
}
