/**
 * Numbers, tables and length caps for the text a language model (and a person) reads about a job or
 * a rollout file: short figures, plain lines, and a cap that says what it left out.
 */
import { redactSecrets } from '../client/redact';
import { plural } from '../kit/format';

/** Characters of a report at most, unless the caller asks for another bound. */
export const defaultReportChars = 8_000;

/**
 * A metric with three significant digits: enough to compare, short enough that a dozen fit on a
 * line. Whole numbers (counts, token totals) stay whole; tiny and huge values take exponent form.
 */
export function formatFigure(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (Number.isInteger(value) && Math.abs(value) < 1e9) return String(value);
  const abs = Math.abs(value);
  // "1e-5" and "1.23e+7": three digits at most, no padding zeros.
  if (abs < 1e-3 || abs >= 1e6) return Number(value.toPrecision(3)).toExponential();
  return String(Number(value.toPrecision(3)));
}

/** "+0.31", "-0.31", "0": the sign always shown, in ASCII so a model reads it as a minus. */
export function formatSignedFigure(value: number): string {
  const text = formatFigure(value);
  return value > 0 ? `+${text}` : text;
}

/** "model step 40" or "model steps 30–39": step numbers as the views print them, with no separators. */
export function stepRange(axisName: string, from: number, to: number): string {
  return from === to ? `${axisName} ${from}` : `${axisName}s ${from}–${to}`;
}

/** Characters of one table cell at most: a table is for numbers, not prose. */
const maxCellChars = 24;

/** Rows of cells as aligned plain lines ("step | loss | reward"), the header first. */
export function textTable(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  // A quoted cell (a metric key from the server) keeps its closing quote when it is cut, so the cut stays inside the quotes.
  const cut = (cell: string) => (cell.length <= maxCellChars ? cell : /^".*"$/.test(cell) ? `${cell.slice(0, maxCellChars - 2).replace(/\\+$/, '')}…"` : `${cell.slice(0, maxCellChars - 1)}…`);
  const all = [header, ...rows].map((row) => row.map(cut));
  const widths = header.map((_, column) => Math.max(...all.map((row) => (row[column] ?? '').length)));
  return all.map((row) =>
    widths
      .map((width, column) => (row[column] ?? '').padEnd(width))
      .join(' | ')
      .trimEnd(),
  );
}

/**
 * Lines joined into a text of at most `maxChars` characters: whole lines are kept while they fit,
 * and the last line says how many were left out ("… 40 more lines"), so a reader never mistakes a
 * cut report for a whole one. A single line longer than the cap is cut with "…". Secrets are
 * masked last, after the cut, as everything that leaves the client is.
 */
export function joinCapped(lines: readonly string[], maxChars: number, secrets: readonly string[] = []): string {
  const cap = Math.max(40, Math.floor(Number.isFinite(maxChars) ? maxChars : defaultReportChars));
  const kept: string[] = [];
  let used = 0;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    const left = lines.length - index;
    const cost = (kept.length > 0 ? 1 : 0) + line.length;
    // Room is kept for the note whenever lines remain after this one.
    const note = left > 1 ? omittedNote(left - 1).length + 1 : 0;
    if (used + cost + note <= cap) {
      kept.push(line);
      used += cost;
      continue;
    }
    if (kept.length === 0) {
      // Nothing fits whole: the first line is cut rather than leaving the text empty.
      kept.push(`${line.slice(0, Math.max(0, cap - note - 1))}…`);
      if (left > 1) kept.push(omittedNote(left - 1));
    } else {
      // The room for this note was kept when the previous line was taken.
      kept.push(omittedNote(left));
    }
    break;
  }
  return redactSecrets(kept.join('\n'), secrets);
}

function omittedNote(lines: number): string {
  return `… ${plural(lines, 'more line')}`;
}
