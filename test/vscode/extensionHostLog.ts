/**
 * Reading the extension host logs of a code-server user data folder: an extension that fails to
 * activate says why only there, and a test run that fails because of it should show that first.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The extension host logs under a `logs` folder (one subfolder per window opened). */
function hostLogFiles(logsDir: string): string[] {
  if (!existsSync(logsDir)) return [];
  return readdirSync(logsDir, { recursive: true, encoding: 'utf8' })
    .filter((path) => /exthost\d*[\\/]remoteexthost\.log$/.test(path))
    .map((path) => join(logsDir, path));
}

function activationErrorsIn(log: string, extensionId: string): string[] {
  const lines = log.split('\n');
  const errors: string[] = [];
  lines.forEach((line, index) => {
    if (!line.includes(`[error] Activating extension ${extensionId} failed`)) return;
    // The message and stack follow on the next lines, each entry starting with a timestamp.
    const following = lines.slice(index + 1, index + 8);
    const end = following.findIndex((next, offset) => offset > 0 && /^\d{4}-\d\d-\d\d /.test(next) && !next.includes('[error]'));
    errors.push([line, ...following.slice(0, end < 0 ? following.length : end)].join('\n'));
  });
  return errors;
}

/** Activation errors of one extension in every extension host log under a `logs` folder. */
export function activationErrors(logsDir: string, extensionId: string): string[] {
  return hostLogFiles(logsDir).flatMap((file) => activationErrorsIn(readFileSync(file, 'utf8'), extensionId));
}
