/** The extension under test and the API its activate() returns under its tests. */
import * as vscode from 'vscode';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RlStudioTestApi } from '../../../src/testApi';

export const extensionId = 'rl-studio.rl-studio';

/**
 * What activate() returns while VS Code runs these tests (ExtensionMode.Test); a normal install
 * exports nothing.
 */
export type RlStudioApi = RlStudioTestApi;

export async function activateExtension(): Promise<RlStudioApi> {
  const extension = vscode.extensions.getExtension<RlStudioApi | undefined>(extensionId);
  if (!extension) throw new Error(`extension ${extensionId} is not loaded`);
  const api = await extension.activate();
  if (!api || typeof api.recentLogLines !== 'function' || typeof api.disposeAll !== 'function') {
    throw new Error(`extension ${extensionId} activated without returning its test API: the tests must run in ExtensionMode.Test`);
  }
  return api;
}

export interface PackageManifest {
  contributes: {
    commands: Array<{ command: string; title: string }>;
    views: Record<string, Array<{ id: string; name: string }>>;
    configuration: { properties: Record<string, { default?: unknown; type?: string }> };
  };
}

/** The package.json the extension was loaded from, as VS Code sees it. */
export function packageManifest(): PackageManifest {
  const extension = vscode.extensions.getExtension(extensionId);
  if (!extension) throw new Error(`extension ${extensionId} is not loaded`);
  return JSON.parse(readFileSync(join(extension.extensionPath, 'package.json'), 'utf8')) as PackageManifest;
}
