/**
 * The report's answers as the page receives them: cut to a preview, a page at a time. A large run
 * is never posted to the page at once; the first screen carries the first page and the page asks
 * for the rest, each page bounded in answers and in characters.
 */
import type { AnswerRecord } from './evalModel';

/** Answers in one page at most. */
export const answersPerPage = 1_000;

/** The answer with its text cut at `previewChars` (`cut` set when it was). */
export function previewAnswer(answer: AnswerRecord, previewChars: number): AnswerRecord & { cut?: boolean } {
  return answer.text !== undefined && answer.text.length > previewChars ? { ...answer, text: answer.text.slice(0, previewChars), cut: true } : answer;
}

/** The answers from `offset`, at most `limit` (and never more than a page), cut to previews. */
export function answerPage(answers: readonly AnswerRecord[], offset: number, limit: number, previewChars: number): (AnswerRecord & { cut?: boolean })[] {
  const from = Math.max(0, Math.min(answers.length, Math.floor(offset)));
  const to = Math.min(answers.length, from + Math.max(0, Math.min(answersPerPage, Math.floor(limit))));
  const page: (AnswerRecord & { cut?: boolean })[] = [];
  for (let at = from; at < to; at++) page.push(previewAnswer(answers[at]!, previewChars));
  return page;
}
