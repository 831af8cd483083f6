/**
 * The rollout inspector's checks applied to a checkpoint's answers: cut at the token limit
 * (`finish_reason` "length"), empty, or ending in a loop (the repetition ratio at or above the
 * inspector's threshold). A checkpoint that starts repeating or truncating shows it here before
 * its mean score does.
 */
import { repetitionRatio } from '../../../platform/kit/repetition';
import type { AnswerRecord } from '../evalModel';

export interface AnswerChecks {
  /** Answers that came (failed requests are not answers). */
  answers: number;
  truncated: number;
  empty: number;
  repeating: number;
}

/** An answer is flagged by at most one check, in this order: truncated, empty, repeating. */
export function checkAnswers(answers: readonly AnswerRecord[], repetitionThreshold: number): AnswerChecks {
  const checks: AnswerChecks = { answers: 0, truncated: 0, empty: 0, repeating: 0 };
  for (const answer of answers) {
    if (answer.error !== undefined || answer.text === undefined) continue;
    checks.answers++;
    if (answer.finishReason === 'length') checks.truncated++;
    else if (answer.text.trim() === '') checks.empty++;
    else if (repetitionRatio(answer.text) >= repetitionThreshold) checks.repeating++;
  }
  return checks;
}

export function flaggedAnswers(checks: AnswerChecks): number {
  return checks.truncated + checks.empty + checks.repeating;
}

/** "3 cut at the token limit, 1 empty" or '' when nothing is flagged. */
export function describeChecks(checks: AnswerChecks): string {
  const parts = [
    checks.truncated ? `${checks.truncated} cut at the token limit` : '',
    checks.empty ? `${checks.empty} empty` : '',
    checks.repeating ? `${checks.repeating} repeating ${checks.repeating === 1 ? 'itself' : 'themselves'}` : '',
  ].filter(Boolean);
  return parts.join(', ');
}
