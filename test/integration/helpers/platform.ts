/**
 * A signed-in RL Studio against a local emulator, for tests that need the platform: starts the
 * emulator inside the extension host, points the settings at it and signs in with its key.
 * disconnect() signs out, restores the settings and closes the emulator.
 */
import * as vscode from 'vscode';
import { randomBytes } from 'node:crypto';
import { startEmulator } from '../../emulator/index';
import type { Emulator, EmulatorOptions } from '../../emulator/contract';
import { activateExtension, type RlStudioApi } from './extension';

export interface ConnectedPlatform {
  readonly api: RlStudioApi;
  readonly emulator: Emulator;
  signIn(): Promise<void>;
  signOut(): Promise<void>;
  disconnect(): Promise<void>;
}

const endpointSettings = ['trainingApiUrl', 'inferenceApiUrl'] as const;

/** A key unlike any other text, so that finding it anywhere is certainly a leak. */
export function uniqueApiKey(): string {
  return `rls-test-${randomBytes(12).toString('hex')}`;
}

export async function setEndpoints(values: { trainingApiUrl: string | undefined; inferenceApiUrl: string | undefined }): Promise<void> {
  const config = vscode.workspace.getConfiguration('rlStudio');
  for (const name of endpointSettings) await config.update(name, values[name], vscode.ConfigurationTarget.Global);
}

export async function connectToEmulator(options: EmulatorOptions = {}): Promise<ConnectedPlatform> {
  const api = await activateExtension();
  const emulator = await startEmulator({ apiKey: uniqueApiKey(), ...options });
  const config = vscode.workspace.getConfiguration('rlStudio');
  const previous = {
    trainingApiUrl: config.inspect<string>('trainingApiUrl')?.globalValue,
    inferenceApiUrl: config.inspect<string>('inferenceApiUrl')?.globalValue,
  };
  await setEndpoints({ trainingApiUrl: emulator.trainingUrl, inferenceApiUrl: emulator.inferenceUrl });
  const signIn = async () => {
    await vscode.commands.executeCommand('rlStudio.signIn', emulator.apiKey);
  };
  const signOut = async () => {
    await vscode.commands.executeCommand('rlStudio.signOut');
  };
  await signIn();
  return {
    api,
    emulator,
    signIn,
    signOut,
    async disconnect() {
      await signOut();
      await setEndpoints(previous);
      await emulator.close();
    },
  };
}
