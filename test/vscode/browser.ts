/** Debian's chromium, headless, driven by playwright-core: the browser side of the web workbench. */
import { chromium, type Browser } from 'playwright-core';
import { existsSync } from 'node:fs';
import { chromiumPath } from './paths';

const flags = [
  '--headless',
  '--no-sandbox', // CI containers run as root, where chromium's sandbox cannot start
  '--disable-gpu',
  '--disable-dev-shm-usage', // /dev/shm is tiny in containers
  // Nothing but 127.0.0.1 is reachable: keep chromium from trying.
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(chromiumPath)) {
    throw new Error(`chromium not found at ${chromiumPath}; run test/vscode/install.sh (or set RL_STUDIO_CHROMIUM)`);
  }
  return chromium.launch({ executablePath: chromiumPath, args: flags });
}
