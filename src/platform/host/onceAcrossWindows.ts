/**
 * Something done once however many VS Code windows are open (each runs its own extension host):
 * the first window to create a key's claim file, with an exclusive create that the file system
 * makes atomic across processes, does it; the others find the file there. Claims live in a folder
 * of the extension's global storage, which every window shares, and are swept after `lifetimeMs`.
 * No `vscode` here: tests run it from several processes.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Claims looked at when sweeping old ones. */
const maxClaimsSwept = 2_000;

/** True in the one process that claims `key` first; false where the claim was already made. Other failures throw. */
export async function claimOnce(folder: string, key: string): Promise<boolean> {
  await mkdir(folder, { recursive: true });
  try {
    await writeFile(join(folder, claimName(key)), '', { flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as { code?: unknown }).code === 'EEXIST') return false;
    throw error;
  }
}

/**
 * `claimOnce` for news or work that must not be lost: when no claim can be made at all (the storage
 * cannot be written), `cannotClaim` hears why and this process acts anyway. Better twice than never.
 */
export async function claimOrActHere(folder: string, key: string, cannotClaim: (error: unknown) => void): Promise<boolean> {
  try {
    return await claimOnce(folder, key);
  } catch (error) {
    cannotClaim(error);
    return true;
  }
}

/** Gives a claim back, for work that was claimed and could not be done: the next to claim it does it. Never throws. */
export async function releaseClaim(folder: string, key: string): Promise<void> {
  await unlink(join(folder, claimName(key))).catch(() => undefined);
}

function claimName(key: string): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 40);
}

/** Removes claims older than `lifetimeMs` (the news they stood for is long told); never throws. */
export async function sweepClaims(folder: string, lifetimeMs: number, now = Date.now()): Promise<number> {
  let removed = 0;
  try {
    for (const name of (await readdir(folder)).slice(0, maxClaimsSwept)) {
      const path = join(folder, name);
      try {
        if (now - (await stat(path)).mtimeMs > lifetimeMs) {
          await unlink(path);
          removed++;
        }
      } catch {
        // Swept by another window meanwhile.
      }
    }
  } catch {
    // No claims yet.
  }
  return removed;
}
