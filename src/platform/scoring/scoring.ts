/**
 * Scores one answer with each scorer of a run: built-in scorers here, the judge through the client
 * (`complete`, which the glue wires to the chat-completions API), command scorers as programs. A
 * scorer that cannot score gives its reason instead of a number; one scorer's failure never stops
 * the others.
 */
import { describeFailure } from '../client/describeFailure';
import type { ChatCompletionRequest } from '../client/types';
import { cutText } from '../kit/plainValues';
import { scoreBuiltin, type Score } from './builtinScorers';
import { runCommandScorer, type CommandContext } from './commandScorer';
import type { ScoredSample } from './scorerSpec';
import type { NamedScorer, ScorerSpec } from './scorerSpec';
import { buildJudgeRequest, parseJudgeVerdict } from './judge';
import type { RegexMatcher } from './regexMatcher';

export interface ScoringContext {
  regex: RegexMatcher;
  /** Sends a judge's request and gives the text of its reply. */
  complete(request: ChatCompletionRequest, signal?: AbortSignal): Promise<string>;
  command: CommandContext;
  signal?: AbortSignal;
  /** The run's seed, for the judge's request. */
  seed?: number;
}

const maxErrorChars = 500;

export async function scoreAnswer(spec: ScorerSpec, sample: ScoredSample, answer: string, context: ScoringContext): Promise<Score> {
  try {
    if (spec.kind === 'judge') {
      const reply = await context.complete(buildJudgeRequest(spec, sample, answer, context.seed), context.signal);
      return parseJudgeVerdict(reply);
    }
    if (spec.kind === 'command') return await runCommandScorer(spec, sample, answer, { ...context.command, signal: context.signal });
    return await scoreBuiltin(spec, sample, answer, context.regex);
  } catch (error) {
    const words = describeFailure(error).message;
    return { error: cutText(spec.kind === 'judge' ? `the judge did not answer: ${words}` : words, maxErrorChars) };
  }
}

/** Each scorer's score by name (only those named in `only`, when given), scorers run one after another. */
export async function scoreWithAll(scorers: readonly NamedScorer[], sample: ScoredSample, answer: string, context: ScoringContext, only?: readonly string[]): Promise<Record<string, Score>> {
  const scores: Record<string, Score> = {};
  for (const scorer of scorers) {
    if (only && !only.includes(scorer.name)) continue;
    const score = await scoreAnswer(scorer.spec, sample, answer, context);
    Object.defineProperty(scores, scorer.name, { value: score, enumerable: true, writable: true, configurable: true });
  }
  return scores;
}
