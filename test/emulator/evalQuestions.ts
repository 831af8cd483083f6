/**
 * Eval questions the emulator can grade, and its answers to them: arithmetic such as "What is
 * 17 + 25?". A right answer is the result; a wrong one is one of the mistakes scorers exist to
 * catch: off by one, the right number in the wrong format, or a repetitive answer that runs on.
 */
import type { Prng } from './prng';

type Operator = '+' | '-' | '*' | '/';

export interface ArithmeticQuestion {
  left: number;
  operator: Operator;
  right: number;
  result: number;
}

const OPERATOR_WORDS: Readonly<Record<string, Operator>> = {
  '+': '+',
  plus: '+',
  '-': '-',
  '−': '-',
  minus: '-',
  '*': '*',
  '×': '*',
  x: '*',
  times: '*',
  'multiplied by': '*',
  '/': '/',
  '÷': '/',
  'divided by': '/',
};

/** Operands of up to six digits, so that every result is an exact integer. */
const QUESTION = /\b(?:what\s+is|what's|compute|calculate|evaluate)\s+(-?\d{1,6})\s*(\+|-|−|\*|×|x|\/|÷|plus|minus|times|multiplied\s+by|divided\s+by)\s*(-?\d{1,6})(?!\d)/i;

/** The question in a prompt, or undefined when the prompt asks none the emulator can grade (division must come out even). */
export function arithmeticQuestion(prompt: string): ArithmeticQuestion | undefined {
  const match = QUESTION.exec(prompt);
  if (!match) return undefined;
  const left = Number(match[1]);
  const right = Number(match[3]);
  const operator = OPERATOR_WORDS[match[2]!.toLowerCase().replace(/\s+/g, ' ')]!;
  const result = compute(left, operator, right);
  return result === undefined ? undefined : { left, operator, right, result };
}

function compute(left: number, operator: Operator, right: number): number | undefined {
  switch (operator) {
    case '+':
      return left + right;
    case '-':
      return left - right;
    case '*':
      return left * right;
    case '/':
      return right !== 0 && left % right === 0 ? left / right : undefined;
  }
}

/**
 * Terse answers (just the number) when any message asks for the number only; otherwise a line of
 * working and a last line `Answer: N`.
 */
export function wantsNumberOnly(texts: readonly string[]): boolean {
  return texts.some((text) => /\b(?:number only|only the number|just the number|only a number|nothing but the number)\b/i.test(text));
}

export type AnswerKind = 'right' | 'off-by-one' | 'malformed' | 'repetitive';

/** Half the wrong answers are off by one, a quarter have the right number in the wrong format, a quarter run on. */
export function wrongKind(random: Prng): Exclude<AnswerKind, 'right'> {
  const roll = random.next();
  return roll < 0.5 ? 'off-by-one' : roll < 0.75 ? 'malformed' : 'repetitive';
}

/** Times a repetitive answer repeats itself: a few hundred tokens, more than a small max_tokens lets through. */
const REPEATS = 40;
const NUMBER_REPEATS = 150;

const SYMBOLS: Readonly<Record<Operator, string>> = { '+': '+', '-': '-', '*': '×', '/': '÷' };

export function renderAnswer(question: ArithmeticQuestion, kind: AnswerKind, numberOnly: boolean, random: Prng): string {
  const expression = `${question.left} ${SYMBOLS[question.operator]} ${question.right}`;
  const right = question.result;
  const wrong = right + (random.next() < 0.5 ? -1 : 1);
  if (numberOnly) {
    switch (kind) {
      case 'right':
        return String(right);
      case 'off-by-one':
        return String(wrong);
      case 'malformed':
        return random.pick([`The answer is ${right}.`, `${right}.`, `Answer: ${right}`, `**${right}**`, `${expression} = ${right}`]);
      case 'repetitive':
        return Array.from({ length: NUMBER_REPEATS }, () => String(right)).join(' ');
    }
  }
  const working = `${random.pick(['', 'Working it out: ', 'Step by step: '])}${expression} = `;
  switch (kind) {
    case 'right':
      return `${working}${right}.\nAnswer: ${right}`;
    case 'off-by-one':
      return `${working}${wrong}.\nAnswer: ${wrong}`;
    case 'malformed':
      return `${working}${right}.\n${random.pick([`The answer is ${right}.`, `Answer = ${right}`, `**Answer**: ${right}`, `answer: ${right}.`])}`;
    case 'repetitive':
      return `${Array.from({ length: REPEATS }, () => `Let me work out ${expression} again.`).join(' ')}\nAnswer: ${wrong}`;
  }
}
