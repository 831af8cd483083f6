/**
 * The LLM judge: a catalogue model grades an answer against a rubric. `buildJudgeRequest` writes the
 * request (the rubric, the prompt, the reference when there is one, the answer, and the demand for
 * a last line "Score: <0-10>"); `parseJudgeVerdict` reads that line back as a score in [0, 1]. The
 * request goes through the same client as every other (the glue sends it).
 */
import type { ChatCompletionRequest, ChatMessage } from '../client/types';
import { cutText } from '../kit/plainValues';
import type { ScoredSample } from './scorerSpec';
import type { Score } from './builtinScorers';

/** Characters of each part shown to the judge: enough for a long answer, bounded for a runaway one. */
export const maxJudgedChars = 50_000;
const maxVerdictLineChars = 200;
/** The judge needs room to reason before its score. */
const judgeMaxTokens = 1_024;

const instructions = [
  'You grade one answer to a prompt, following the rubric you are given.',
  'Think it through briefly, then end your reply with a final line of exactly this form:',
  'Score: <a number from 0 to 10>',
  '(0 is the worst, 10 the best.)',
].join('\n');

export function buildJudgeRequest(spec: { model: string; rubric: string }, sample: Pick<ScoredSample, 'messages' | 'reference'>, answer: string, seed = 0): ChatCompletionRequest {
  const parts = [`# Rubric\n${cutText(spec.rubric, maxJudgedChars)}`, `# Prompt\n${cutText(renderPrompt(sample.messages), maxJudgedChars)}`];
  if (sample.reference !== undefined) parts.push(`# Reference answer\n${cutText(sample.reference, maxJudgedChars)}`);
  parts.push(`# Answer to grade\n${cutText(answer, maxJudgedChars)}`);
  parts.push('End with the line "Score: <0-10>".');
  const messages: ChatMessage[] = [
    { role: 'system', content: instructions },
    { role: 'user', content: parts.join('\n\n') },
  ];
  return { model: spec.model, messages, temperature: 0, seed, max_tokens: judgeMaxTokens };
}

/** The prompt as the judge reads it: each message under its role. */
function renderPrompt(messages: readonly ChatMessage[]): string {
  return messages.map((message) => `[${message.role}]\n${message.content}`).join('\n\n');
}

/**
 * The score of the last line that reads "Score: N" (N from 0 to 10, "/10" and Markdown emphasis
 * tolerated), divided by 10. Only the last such line counts: a judge may quote the format earlier.
 */
export function parseJudgeVerdict(text: string): Score {
  const lines = text.slice(-maxJudgedChars).split('\n');
  for (let at = lines.length - 1; at >= 0; at--) {
    // A verdict line is short; a long line is not one (and the pattern then stays cheap).
    if (lines[at]!.length > maxVerdictLineChars) continue;
    const match = /^[\s*_#>-]*score[\s*_]*[:=][\s*_]*(\d+(?:\.\d+)?)\s*(?:\/\s*10)?[\s*_.]*$/i.exec(lines[at]!);
    if (!match) continue;
    const value = Number(match[1]);
    if (value > 10) return { error: `the judge gave ${match[1]}, outside the scale 0 to 10` };
    return value / 10;
  }
  return { error: 'the judge\'s reply has no final line "Score: <0-10>"; the answer is not scored' };
}
