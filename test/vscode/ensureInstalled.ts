/**
 * Makes sure code-server, Node 24 and chromium are there, running the project's install script when
 * they are not, so that a first local run needs no manual step. It never skips: if the install
 * fails, the caller fails.
 *
 * Readiness is the install script's own check (`install.sh --check`), so the two never disagree: a
 * half-finished install (interrupted, or its native modules never built) counts as missing.
 * The script cleans the environment an outer `npm test` / `npm start` exported before it runs npm
 * itself (see clean_npm_environment in install.sh).
 */
import { spawnSync } from 'node:child_process';
import { cacheDir, installScript } from './paths';

export function toolsReady(): boolean {
  return spawnSync('bash', [installScript, '--check'], { stdio: 'ignore' }).status === 0;
}

export function ensureCodeServerInstalled(): void {
  if (toolsReady()) return;
  console.log(`First run: installing code-server, Node 24 and (when missing) chromium into ${cacheDir}, with test/vscode/install.sh.`);
  console.log('This takes about 3 minutes once; set RL_STUDIO_CACHE to install elsewhere.');
  const result = spawnSync('bash', [installScript], { stdio: 'inherit' });
  if (result.status !== 0) {
    throw new Error(`test/vscode/install.sh failed (exit ${result.status ?? result.signal}); no VS Code can be started`);
  }
}
