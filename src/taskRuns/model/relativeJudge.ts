/**
 * A judge that ranks the answers of one group against each other, the way the official client's
 * RULER does: the judge model reads the prompt once and every answer under a number, and gives each
 * a score from 0 to 1, relative to the others (GRPO only needs the order within a group). One
 * request per group. `parseRelativeScores` reads the judge's JSON back, strictly: a score for every
 * answer, each in [0, 1], or a reason why not (the group is then not trained on).
 */
import type { ChatCompletionRequest, ChatMessage } from '../../platform/client/types';
import { cutText, isRecord, own } from '../../platform/kit/plainValues';
import { parseStrictJson } from '../../platform/kit/strictJson';

/** Characters of each answer and of the prompt shown to the judge. */
const maxShownChars = 20_000;
/** The judge explains each score briefly before the JSON closes. */
export const relativeJudgeMaxTokens = 2_048;

const instructions = [
  'You compare several answers to the same prompt and score each from 0 to 1 against the rubric, relative to the others:',
  'the best answer gets the highest score, a clearly worse one a clearly lower score, equally good answers equal scores.',
  'Reply with JSON only, of exactly this form:',
  '{"scores": [{"answer": 1, "explanation": "…", "score": 0.8}, …]}',
  'with one entry for every answer, numbered as given.',
].join('\n');

export function buildRelativeJudgeRequest(spec: { model: string; rubric: string }, prompt: readonly ChatMessage[], answers: readonly string[], seed = 0): ChatCompletionRequest {
  const shownPrompt = prompt.map((message) => `[${message.role}]\n${typeof message.content === 'string' ? message.content : JSON.stringify(message.content)}`).join('\n\n');
  const parts = [`# Rubric\n${cutText(spec.rubric, maxShownChars)}`, `# Prompt\n${cutText(shownPrompt, maxShownChars)}`];
  answers.forEach((answer, index) => parts.push(`# Answer ${index + 1}\n${cutText(answer, maxShownChars)}`));
  parts.push(`Score all ${answers.length} answers. JSON only.`);
  return {
    model: spec.model,
    messages: [
      { role: 'system', content: instructions },
      { role: 'user', content: parts.join('\n\n') },
    ],
    temperature: 0,
    seed,
    max_tokens: relativeJudgeMaxTokens,
  };
}

/** The scores of `count` answers from the judge's reply, in answer order. */
export function parseRelativeScores(reply: string, count: number): { scores: number[] } | { error: string } {
  // A JSON object, perhaps in a fenced block or after a sentence: from the first "{" to the last "}".
  const start = reply.indexOf('{');
  const end = reply.lastIndexOf('}');
  if (start < 0 || end < start) return { error: "the judge's reply holds no JSON object" };
  const parsed = parseStrictJson(reply, start, end + 1);
  if (!parsed.ok) return { error: `the judge's JSON does not parse (${parsed.error.message})` };
  const list = isRecord(parsed.value) ? own(parsed.value, 'scores') : undefined;
  if (!Array.isArray(list)) return { error: 'the judge\'s JSON has no "scores" list' };
  const scores = Array.from<number | undefined>({ length: count });
  for (const entry of list.slice(0, 4 * count)) {
    if (!isRecord(entry)) continue;
    const answer = own(entry, 'answer') ?? own(entry, 'trajectory_id');
    const score = own(entry, 'score');
    const at = typeof answer === 'number' ? answer : typeof answer === 'string' && /^\d+$/.test(answer) ? Number(answer) : NaN;
    if (!Number.isInteger(at) || at < 1 || at > count) return { error: `the judge scored an answer ${JSON.stringify(answer)} that was not given` };
    if (typeof score !== 'number' || !(score >= 0 && score <= 1)) return { error: `the judge gave answer ${at} the score ${JSON.stringify(score)}, not a number from 0 to 1` };
    if (scores[at - 1] !== undefined) return { error: `the judge scored answer ${at} twice` };
    scores[at - 1] = score;
  }
  const missing = scores.findIndex((score) => score === undefined);
  if (missing >= 0) return { error: `the judge gave no score to answer ${missing + 1}` };
  return { scores: scores as number[] };
}
