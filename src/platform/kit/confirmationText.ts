/**
 * The words of a confirmation and of text handed to an agent, made so that what the person reads is
 * exactly what will happen, and so that text written by a server or a file can never pass for RL
 * Studio's own line: every step named (as ranges, never cut), every URL's whole host on a line of
 * its own, foreign text on one line inside visible quotes with its line breaks and control
 * characters shown as escapes, and a digest of what was read so the action can refuse a file that
 * changed after the person said yes.
 */
import { createHash } from 'node:crypto';
import { escapeForOneLine } from './format';

/**
 * Steps as sorted ranges, every one of them: `0–99, 120, 140–142`. Duplicates count once. Never
 * cut: a confirmation that deletes steps names each of them.
 */
export function stepRanges(steps: Iterable<number>): string {
  const sorted = [...new Set(steps)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let at = 0; at < sorted.length;) {
    let end = at;
    while (end + 1 < sorted.length && sorted[end + 1] === sorted[end]! + 1) end++;
    parts.push(end === at ? `${sorted[at]}` : end === at + 1 ? `${sorted[at]}, ${sorted[end]}` : `${sorted[at]}–${sorted[end]}`);
    at = end + 1;
  }
  return parts.join(', ');
}

// Foreign text on one line lives with `oneLine` in format.ts (failures quote the server's words
// too, in the activation bundle); it is named here as well, beside the other words of a confirmation.
export { escapeForOneLine, quoted } from './format';

/**
 * A URL as a confirmation names it: its whole host (with port) on its own, never cut, so a long
 * path cannot push the real destination out of sight; whether it is plain `http:`, which sends
 * what it carries in clear; and the whole URL, never cut either. Undefined host when the text is not a URL.
 */
export function describeUrl(url: string): { host: string | undefined; scheme: string | undefined; whole: string } {
  try {
    const parsed = new URL(url);
    return { host: parsed.host || undefined, scheme: parsed.protocol.replace(/:$/, ''), whole: escapeForOneLine(url) };
  } catch {
    return { host: undefined, scheme: undefined, whole: escapeForOneLine(url) };
  }
}

/** The lines a confirmation gives a URL: `Host: …` alone, then the whole address. */
export function urlLines(label: string, url: string): string[] {
  const { host, scheme, whole } = describeUrl(url);
  return [`${label} host: ${host ?? '(not a URL)'}${scheme === 'http' ? ' (http: not encrypted)' : ''}`, `${label}: ${whole}`];
}

/** A digest of what was read for a confirmation, to check before acting that it has not changed. */
export function contentDigest(content: Uint8Array | string): string {
  return createHash('sha256').update(content).digest('hex');
}

/**
 * `contentDigest` of a large body, taken 4 MB at a time with the event loop served between slices,
 * so digesting a 100 MB file never blocks the extension host for long.
 */
export async function contentDigestInSlices(bytes: Uint8Array): Promise<string> {
  const hash = createHash('sha256');
  const slice = 4 * 1024 * 1024;
  for (let at = 0; at < bytes.byteLength; at += slice) {
    if (at > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    hash.update(bytes.subarray(at, at + slice));
  }
  return hash.digest('hex');
}
