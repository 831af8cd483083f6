/**
 * A canary's verdict in words, for its notification and the log: leads with what happened, then the
 * figures (the interval of the change, the prompts), then the answers' checks.
 */
import { formatMetric } from '../../../platform/kit/format';
import { describeChecks, flaggedAnswers } from './answerChecks';
import type { CanaryVerdict } from './canaryVerdict';

const score = (value: number) => formatMetric(Math.round(value * 1000) / 1000);

export function describeVerdict(modelName: string, verdict: CanaryVerdict): string {
  const name = modelName.split('/').at(-1) ?? modelName;
  const subject = `step ${verdict.step} of ${name}`;
  const checks = describeChecks(verdict.checks);
  const flagged = checks ? ` ${flaggedAnswers(verdict.checks)} of ${verdict.checks.answers} answers flagged: ${checks}.` : '';
  const comparison = verdict.comparison;
  if (verdict.drop && verdict.best && comparison) {
    return (
      `Canary: ${subject} scores ${score(verdict.score.mean)}, ${score(-comparison.meanDifference)} below step ${verdict.best.step}, the best so far ` +
      `(${Math.round(comparison.confidence * 100)} % interval of the change ${score(comparison.low)} to ${score(comparison.high)}, ${comparison.pairs} prompts).${flagged}`
    );
  }
  if (verdict.flagged) return `Canary: ${subject} answers badly:${flagged} It scores ${score(verdict.score.mean)}.`;
  const against =
    verdict.best && comparison
      ? `, ${comparison.meanDifference >= 0 ? '+' : ''}${score(comparison.meanDifference)} against step ${verdict.best.step} (${score(comparison.low)} to ${score(comparison.high)})`
      : '';
  return `Canary: ${subject} scores ${score(verdict.score.mean)} (${score(verdict.score.low)} to ${score(verdict.score.high)}, ${verdict.score.scored} answers)${against}.${flagged}`;
}
