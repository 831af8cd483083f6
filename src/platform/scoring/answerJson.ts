/**
 * The JSON an answer holds: the whole answer (white space at the ends ignored), or else its first
 * fenced code block (```json … ```), since models often wrap JSON in one. Bounded: an answer longer
 * than `scoringLimits.maxScoredChars` is not parsed (a cut JSON text would only fail), nor is JSON
 * nested deeper than core/strictJson.ts's limit.
 */
import { scoringLimits } from './scorerSpec';
import { firstTooDeep, tooDeepMessage } from '../kit/strictJson';
import { errorMessage } from '../client/errorMessage';

export type AnswerJson = { ok: true; value: unknown } | { ok: false; reason: string } | { error: string };

export function answerJson(answer: string): AnswerJson {
  if (answer.length > scoringLimits.maxScoredChars) return { error: `the answer is longer than the ${scoringLimits.maxScoredChars.toLocaleString('en-US')} characters scored` };
  const whole = parseJson(answer.trim());
  if (whole.ok) return whole;
  const block = firstFencedBlock(answer);
  if (block === undefined) return whole;
  const inBlock = parseJson(block.trim());
  return inBlock.ok ? inBlock : { ok: false, reason: `neither the answer nor its first code block is JSON (${inBlock.reason})` };
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; reason: string } {
  if (text === '') return { ok: false, reason: 'the answer is empty' };
  if (firstTooDeep(text) >= 0) return { ok: false, reason: `the JSON is ${tooDeepMessage}` };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, reason: errorMessage(error) };
  }
}

/** The body of the first ``` fence (after its info line), up to the next fence or the end. Found with indexOf: linear. */
export function firstFencedBlock(text: string): string | undefined {
  const open = text.indexOf('```');
  if (open < 0) return undefined;
  const lineEnd = text.indexOf('\n', open + 3);
  if (lineEnd < 0) return undefined;
  const close = text.indexOf('```', lineEnd + 1);
  return text.slice(lineEnd + 1, close < 0 ? text.length : close);
}
