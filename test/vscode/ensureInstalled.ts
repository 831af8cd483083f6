/**
 * Makes sure code-server, Node 24 and chromium are there, running the project's install script when
 * they are not, so that a first local run needs no manual step. It never skips: if the install
 * fails, the caller fails.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromiumPath, codeServerInstalled, installScript } from './paths';

export function ensureCodeServerInstalled(): void {
  if (codeServerInstalled() && existsSync(chromiumPath)) return;
  console.log('code-server or chromium is missing: running test/vscode/install.sh');
  const result = spawnSync('bash', [installScript], { stdio: 'inherit' });
  if (result.status !== 0) {
    throw new Error(`test/vscode/install.sh failed (exit ${result.status ?? result.signal}); no VS Code can be started`);
  }
}
