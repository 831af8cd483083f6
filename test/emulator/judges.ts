/**
 * The emulator as a judge: a request written like RL Studio's LLM judge ("# Answer to grade", a last
 * line "Score: N" asked for) or its relative judge ("# Answer 1", "# Answer 2"…, JSON scores asked
 * for) is graded the way a careful judge would grade arithmetic: an answer whose last number is the
 * prompt's result is right. A prompt that is not arithmetic gets the middle score for every answer.
 * Deterministic, so a run rewarded by a judge can be tested offline.
 */
import { arithmeticQuestion } from './evalQuestions';

/** The judge's reply to `prompt` (the last user message), or undefined when it is not a judge's request. */
export function judgeReply(prompt: string): string | undefined {
  const promptPart = /^# Prompt\n([\s\S]*?)(?=\n\n# )/m.exec(prompt)?.[1];
  if (promptPart === undefined) return undefined;
  const question = arithmeticQuestion(promptPart);
  const grade = (answer: string): number => {
    if (!question) return 0.5;
    const numbers = answer.match(/-?\d+(?:\.\d+)?/g);
    return numbers && Number(numbers.at(-1)) === question.result ? 1 : 0;
  };
  if (/^# Answer to grade\n/m.test(prompt) && /Score: <0-10>/.test(prompt)) {
    const answer = /^# Answer to grade\n([\s\S]*?)(?=\n\nEnd with the line)/m.exec(prompt)?.[1] ?? '';
    const score = grade(answer);
    return `${score === 1 ? 'The final number is right.' : score === 0 ? 'The final number is wrong.' : 'Hard to say.'}\nScore: ${Math.round(score * 10)}`;
  }
  if (!/^Score all \d+ answers\. JSON only\.$/m.test(prompt)) return undefined;
  const answers = [...prompt.matchAll(/^# Answer (\d+)\n([\s\S]*?)(?=\n\n# Answer \d+\n|\n\nScore all \d+ answers)/gm)];
  if (answers.length === 0) return undefined;
  return JSON.stringify({
    scores: answers.map((match) => {
      const score = grade(match[2]!);
      return { answer: Number(match[1]), explanation: score === 1 ? 'right' : score === 0 ? 'wrong' : 'not arithmetic', score };
    }),
  });
}
