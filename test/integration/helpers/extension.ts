/** The extension under test and the API its activate() returns, as the tests rely on it. */
import * as vscode from 'vscode';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const extensionId = 'rl-studio.rl-studio';

export interface RlStudioApi {
  readonly views: { models: vscode.TreeDataProvider<unknown>; jobs: vscode.TreeDataProvider<unknown> };
  /** Recent lines of the RL Studio log channel, newest last. */
  recentLogLines(): string[];
  /** Everything kept in globalState and workspaceState. */
  storedState(): Record<string, unknown>;
}

export async function activateExtension(): Promise<RlStudioApi> {
  const extension = vscode.extensions.getExtension<RlStudioApi>(extensionId);
  if (!extension) throw new Error(`extension ${extensionId} is not loaded`);
  const api = await extension.activate();
  if (!api || typeof api.recentLogLines !== 'function' || !api.views) {
    throw new Error(`extension ${extensionId} activated without returning its API (views, recentLogLines, storedState)`);
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
