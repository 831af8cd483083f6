/**
 * Which answers of a results file this machine produced. The file cannot say so itself: anybody can
 * write "scores" into a file and commit it. So a run here records a digest of each answer it wrote
 * (its identity and everything the report ranks by: text, error, scores) outside the workspace,
 * and the report counts an answer as produced here only when its digest is in that record. An
 * answer edited after the run, or one that came with a cloned repository, counts as from the file.
 */
import { createHash } from 'node:crypto';
import type { AnswerRecord } from './evalModel';
import { maxRunAnswers } from './resultsFile';

/** Hex characters of a digest kept: 128 bits, ample against collisions and a third of the full size. */
const digestChars = 32;

/**
 * The digest of what an answer says: model, sample, draw, key, text, finish, error and its scores
 * (by name). Each field is fed with its length first, so no two answers share the stream; fed piece
 * by piece, never joined into one string, because a large file's answers are hashed in bulk.
 */
export function answerDigest(answer: AnswerRecord): string {
  const hash = createHash('sha256');
  const field = (value: string | undefined): void => {
    hash.update(value === undefined ? '-;' : `${value.length};`);
    if (value !== undefined) hash.update(value);
  };
  field(answer.model);
  field(answer.sample);
  field(String(answer.draw));
  field(answer.key);
  field(answer.text);
  field(answer.finishReason);
  field(answer.error);
  const names = Object.keys(answer.scores).sort();
  field(JSON.stringify(names.map((name) => [name, answer.scores[name]])));
  return hash.digest('hex').slice(0, digestChars);
}

/** How many of a file's answers this machine produced, and how many came with the file. */
export interface AnswerProvenance {
  total: number;
  producedHere: number;
  fromFile: number;
}

export function countProvenance(digests: readonly string[], producedHere: ReadonlySet<string>): AnswerProvenance {
  let here = 0;
  for (const digest of digests) if (producedHere.has(digest)) here++;
  return { total: digests.length, producedHere: here, fromFile: digests.length - here };
}

/** The record of one results file: the digests of the answers a run here wrote into it. */
export interface ProvenanceRecord {
  version: 1;
  digests: string[];
}

const digestPattern = /^[0-9a-f]{32}$/;

/** The record as stored, read back; an unreadable one is an empty record (nothing counts as produced here). */
export function parseProvenanceRecord(text: string): Set<string> {
  try {
    const value = JSON.parse(text) as Partial<ProvenanceRecord>;
    if (value?.version !== 1 || !Array.isArray(value.digests)) return new Set();
    return new Set(value.digests.slice(0, maxRunAnswers).filter((digest): digest is string => typeof digest === 'string' && digestPattern.test(digest)));
  } catch {
    return new Set();
  }
}

/**
 * Adds `produced` (digests of answers a run here wrote) to the record, in place (a record may hold a
 * million digests; a copy per batch of answers would cost more than the batch), dropping the oldest
 * past the most answers a run may hold.
 */
export function addProduced(record: Set<string>, produced: readonly string[], limit = maxRunAnswers): void {
  for (const digest of produced) {
    record.delete(digest);
    record.add(digest);
  }
  for (const digest of record) {
    if (record.size <= limit) break;
    record.delete(digest);
  }
}

export function serializeProvenanceRecord(digests: Iterable<string>): string {
  const record: ProvenanceRecord = { version: 1, digests: [...digests] };
  return JSON.stringify(record);
}

/** Answers digested between two turns of the event loop, when digests are made on the host's thread. */
const digestSlice = 2_000;

/** Each answer's digest, a slice per turn of the event loop, so a long run never stalls the thread. */
export async function digestInSlices(answers: readonly AnswerRecord[]): Promise<string[]> {
  const digests: string[] = [];
  for (let at = 0; at < answers.length; at += digestSlice) {
    if (at > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    for (const answer of answers.slice(at, at + digestSlice)) digests.push(answerDigest(answer));
  }
  return digests;
}
