/**
 * Reads an eval set: a JSONL text of samples, one per line, each `{"messages": [...], "reference"?:
 * "...", "metadata"?: {...}, "id"?: "..."}`. A line that is not a sample becomes a problem with its
 * zero-based line and a message a person reads; the reading goes on after it. Bounded: at most
 * `evalLimits.samples` samples, lines of at most `maxSampleLineChars`, and `maxListedProblems`
 * problems listed (one more counts the rest).
 */
import type { ChatMessage } from '../../platform/client/types';
import { firstTooDeep, tooDeepMessage } from '../../platform/kit/strictJson';
import { isRecord, own } from '../../platform/kit/plainValues';
import { canonicalJson, sha256Hex } from './canonicalJson';
import { readChatMessages } from './chatMessages';
import { evalLimits, type EvalSample } from './evalModel';
import { errorMessage } from '../../platform/client/errorMessage';

export interface EvalSetProblem {
  /** Zero-based line. */
  line: number;
  message: string;
}

export interface ParsedEvalSet {
  samples: EvalSample[];
  problems: EvalSetProblem[];
}

/** 4 MB of text per sample: a long prompt fits many times over; a runaway line is refused before parsing. */
export const maxSampleLineChars = 4 * 1024 * 1024;
export const maxListedProblems = 100;
/** A sample's own id is kept when it is short text; longer ones are refused (ids end up in file names and tooltips). */
export const maxSampleIdChars = 200;

/** Hex digits of a sample's hash id: 16 (64 bits) tell 10,000 samples apart with room to spare. */
const hashIdChars = 16;

/** The id of a sample without its own: a hash of its prompt and reference, so it survives reordering the file. */
export function sampleHashId(messages: readonly ChatMessage[], reference: string | undefined): string {
  return sha256Hex(canonicalJson({ messages, reference }), hashIdChars);
}

/** A hash of a set's samples in order (`EvalRunFile.set.hash`): tells whether the set changed since a run. */
export function evalSetHash(samples: readonly EvalSample[]): string {
  return sha256Hex(canonicalJson(samples.map((sample) => ({ id: sample.id, messages: sample.messages, reference: sample.reference }))), 32);
}

/** Collects samples and problems, keeping ids unique and the counts within bounds. */
export class EvalSetBuilder {
  readonly samples: EvalSample[] = [];
  readonly problems: EvalSetProblem[] = [];
  private readonly ids = new Map<string, number>();
  private unlisted = 0;
  private full = false;

  /** False once the set holds as many samples as a set may: the caller stops reading. */
  get open(): boolean {
    return !this.full;
  }

  problem(line: number, message: string): void {
    if (this.problems.length < maxListedProblems) this.problems.push({ line, message });
    else this.unlisted++;
  }

  add(sample: EvalSample): void {
    const earlier = this.ids.get(sample.id);
    if (earlier !== undefined) return this.problem(sample.line, `the sample's id "${sample.id}" is already the id of line ${earlier + 1}; this line is left out`);
    if (this.samples.length >= evalLimits.samples) {
      this.full = true;
      return this.problem(sample.line, `the set holds more than ${evalLimits.samples.toLocaleString('en-US')} samples; this line and the ones after it are left out`);
    }
    this.ids.set(sample.id, sample.line);
    this.samples.push(sample);
  }

  finish(): ParsedEvalSet {
    if (this.unlisted > 0) this.problems.push({ line: this.problems[this.problems.length - 1]!.line, message: `${this.unlisted} more problems are not listed` });
    return { samples: this.samples, problems: this.problems };
  }
}

export function tooLongMessage(chars: number, maxChars: number): string {
  return `the line is ${chars.toLocaleString('en-US')} characters long, more than the ${maxChars.toLocaleString('en-US')} read; it is left out`;
}

/** Parses one line's JSON, refusing what is too deep before JSON.parse sees it. */
export function parseLineJson(text: string): { value: unknown } | { error: string } {
  if (firstTooDeep(text) >= 0) return { error: `the line's JSON is ${tooDeepMessage}` };
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (error) {
    return { error: `the line is not JSON (${errorMessage(error)})` };
  }
}

/**
 * The lines of a text with their zero-based numbers, found one at a time (no array of every line).
 * A line longer than `maxChars` comes without its text (never copied), with its length.
 */
export function* linesOf(text: string, maxChars: number): Generator<{ line: number; text: string | undefined; chars: number }> {
  let start = 0;
  let line = 0;
  while (start <= text.length) {
    const end = text.indexOf('\n', start);
    const stop = end < 0 ? text.length : end;
    const bodyEnd = stop > start && text.charCodeAt(stop - 1) === 0x0d ? stop - 1 : stop;
    const chars = bodyEnd - start;
    if (end >= 0 || chars > 0) yield { line, text: chars > maxChars ? undefined : text.slice(start, bodyEnd), chars };
    if (end < 0) return;
    start = end + 1;
    line++;
  }
}

export function parseEvalSet(text: string): ParsedEvalSet {
  const builder = new EvalSetBuilder();
  for (const { line, text: lineText, chars } of linesOf(text, maxSampleLineChars)) {
    if (!builder.open) break;
    if (lineText === undefined) {
      builder.problem(line, tooLongMessage(chars, maxSampleLineChars));
      continue;
    }
    if (lineText.trim() === '') continue;
    const parsed = parseLineJson(lineText);
    if ('error' in parsed) {
      builder.problem(line, parsed.error);
      continue;
    }
    const sample = readSample(parsed.value, line);
    if ('error' in sample) builder.problem(line, sample.error);
    else builder.add(sample.sample);
  }
  return builder.finish();
}

function readSample(value: unknown, line: number): { sample: EvalSample } | { error: string } {
  if (!isRecord(value)) return { error: 'a sample must be a JSON object with "messages"' };
  const read = readChatMessages(own(value, 'messages'));
  if ('error' in read) return read;
  const reference = own(value, 'reference');
  if (reference !== undefined && reference !== null && typeof reference !== 'string') return { error: '"reference" must be text' };
  const metadata = own(value, 'metadata');
  if (metadata !== undefined && metadata !== null && !isRecord(metadata)) return { error: '"metadata" must be an object' };
  const ownId = own(value, 'id');
  if (ownId !== undefined && ownId !== null && (typeof ownId !== 'string' || ownId.length === 0 || ownId.length > maxSampleIdChars)) {
    return { error: `"id" must be text of 1 to ${maxSampleIdChars} characters` };
  }
  const id = typeof ownId === 'string' ? ownId : sampleHashId(read.messages, typeof reference === 'string' ? reference : undefined);
  const sample: EvalSample = { id, messages: read.messages, line };
  if (typeof reference === 'string') sample.reference = reference;
  if (isRecord(metadata)) sample.metadata = metadata;
  return { sample };
}
