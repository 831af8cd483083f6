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
