/** Durations, numbers and server text as the views print them. */

/** "850 ms", "42 s", "3 min 05 s", "2 h 07 min". */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = Math.floor(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${String(seconds % 60).padStart(2, '0')} s`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${String(minutes % 60).padStart(2, '0')} min`;
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
}

/** A metric value with about four significant digits; tiny and huge values in exponent form. */
export function formatMetric(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (Number.isInteger(value) && Math.abs(value) < 1e9) return String(value);
  const abs = Math.abs(value);
  if (abs !== 0 && (abs < 1e-3 || abs >= 1e6)) return value.toExponential(2);
  return String(Number(value.toPrecision(4)));
}

/** A date from seconds or milliseconds since the epoch, in ISO form without milliseconds. */
export function formatTimestamp(value: number): string {
  const ms = value < 1e12 ? value * 1000 : value;
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? String(value) : date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

// Made on first use: this module is part of the activation bundle, which only registers.
let countFormat: Intl.NumberFormat | undefined;

/** 12,345 */
export function formatCount(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  countFormat ??= new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
  return countFormat.format(value);
}

/** "1 group", "12,345 groups" */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${formatCount(count)} ${count === 1 ? one : many}`;
}

/** Characters of a message line at most, unless the caller needs another bound. */
export const defaultLineChars = 300;

/**
 * Text on one readable line: runs of whitespace (line breaks included) become one space, and text
 * longer than `maxChars` is cut there, ending with "…".
 */
export function oneLine(text: string, maxChars = defaultLineChars): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > maxChars ? `${flat.slice(0, Math.max(0, maxChars - 1))}…` : flat;
}

/** Characters of foreign text quoted on one line unless the caller needs another bound. */
const defaultQuotedChars = 300;

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
  return text.replace(/[\u0000-\u001f\u007f-\u009f"\\\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, escapeCharacter);
}

/**
 * Line breaks and other control characters shown escaped (`\n`), the rest as it is: for a line
 * that is RL Studio's own but carries foreign text, such as a log entry.
 */
export function escapeLineBreaks(text: string): string {
  return text.replace(/[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, escapeCharacter);
}

function escapeCharacter(char: string): string {
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
}
