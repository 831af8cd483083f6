/**
 * The words of a confirmation and of text handed to an agent, made so that what the person reads is
 * exactly what will happen, and so that text written by a server or a file can never pass for RL
 * Studio's own line: every step named (as ranges, never cut), every URL's whole host on a line of
 * its own, foreign text on one line inside visible quotes with its line breaks and control
 * characters shown as escapes, and a digest of what was read so the action can refuse a file that
 * changed after the person said yes.
 */
import { createHash } from 'node:crypto';

/**
 * Steps as sorted ranges, every one of them: `0–99, 120, 140–142`. Duplicates count once. Never
 * cut: a confirmation that deletes steps names each of them.
 */
export function stepRanges(steps: Iterable<number>): string {
  const sorted = [...new Set(steps)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let at = 0; at < sorted.length; ) {
    let end = at;
    while (end + 1 < sorted.length && sorted[end + 1] === sorted[end]! + 1) end++;
    parts.push(end === at ? `${sorted[at]}` : end === at + 1 ? `${sorted[at]}, ${sorted[end]}` : `${sorted[at]}–${sorted[end]}`);
    at = end + 1;
  }
  return parts.join(', ');
}

/** Characters of foreign text quoted on one line unless the caller needs another bound. */
export const defaultQuotedChars = 300;

/**
 * Text from a server or a file, on one line inside double quotes: line breaks, tabs, other control
 * characters, quotes and backslashes are shown escaped (`\n`, `\u0007`), and text longer than
 * `maxChars` is cut with `…` inside the quotes, so the cut is visible and the quote always closes.
 * The Unicode line and paragraph separators and bidirectional controls are escaped too: they can
 * break a line or reorder it on screen as surely as a newline.
 */
export function quoted(text: string, maxChars = defaultQuotedChars): string {
  const cut = text.length > maxChars;
  const kept = cut ? text.slice(0, Math.max(0, maxChars)) : text;
  return `"${escapeForOneLine(kept)}${cut ? '…' : ''}"`;
}

/** The escapes of `quoted`, without the quotes. */
export function escapeForOneLine(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f"\\\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, (char) => {
    switch (char) {
      case '\n':
        return '\\n';
      case '\r':
        return '\\r';
      case '\t':
        return '\\t';
      case '"':
        return '\\"';
      case '\\':
        return '\\\\';
      default:
        return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
    }
  });
}

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
