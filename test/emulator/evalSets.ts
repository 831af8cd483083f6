/**
 * Arithmetic eval sets the emulator grades (see evalQuestions.ts), made from a seed: the fixtures
 * and the demo's set were written by this, and a benchmark makes sets of any size with it.
 */
import { Prng } from './prng';

export interface ArithmeticSample {
  id?: string;
  messages: { role: 'system' | 'user'; content: string }[];
  reference: string;
  metadata: { operation: 'addition' | 'subtraction' | 'multiplication' | 'division'; difficulty: 'easy' | 'medium' | 'hard' };
}

const SYSTEM = 'You are a careful calculator. Reply with the number only.';

/**
 * `count` samples cycling through addition, subtraction, multiplication and even division, in
 * symbols or words, each asking for the number only; ids `${idPrefix}-001` onwards, except for
 * the samples from `withIdsUpTo` on (their id is then the reader's hash of prompt and reference).
 */
export function arithmeticSamples(count: number, seed: number, idPrefix: string, withIdsUpTo = count): ArithmeticSample[] {
  const random = new Prng(seed);
  const samples: ArithmeticSample[] = [];
  for (let index = 0; index < count; index++) {
    const { left, operator, right, result, operation } = question(index % 4, random);
    const lead = ['What is', 'What is', 'What is', 'Compute', 'Calculate'][random.int(0, 4)]!;
    const text = `${lead} ${left} ${operator} ${right}${lead === 'What is' ? '?' : '.'}`;
    const size = Math.abs(result);
    const sample: ArithmeticSample = {
      messages: [
        { role: 'system', content: SYSTEM },
        { role: 'user', content: text },
      ],
      reference: String(result),
      metadata: { operation, difficulty: size >= 100 ? 'hard' : size >= 30 ? 'medium' : 'easy' },
    };
    samples.push(index < withIdsUpTo ? { id: `${idPrefix}-${String(index + 1).padStart(3, '0')}`, ...sample } : sample);
  }
  return samples;
}

/** The samples as JSONL text, one a line. */
export function evalSetText(samples: readonly ArithmeticSample[]): string {
  return samples.map((sample) => `${JSON.stringify(sample)}\n`).join('');
}

function question(kind: number, random: Prng) {
  switch (kind) {
    case 0: {
      const [left, right] = [random.int(2, 99), random.int(2, 99)];
      return { left, right, result: left + right, operator: random.next() < 0.7 ? '+' : 'plus', operation: 'addition' as const };
    }
    case 1: {
      const [left, right] = [random.int(20, 199), random.int(2, 99)];
      return { left, right, result: left - right, operator: random.next() < 0.7 ? '-' : 'minus', operation: 'subtraction' as const };
    }
    case 2: {
      const [left, right] = [random.int(2, 19), random.int(2, 19)];
      return { left, right, result: left * right, operator: random.next() < 0.6 ? '*' : random.next() < 0.5 ? '×' : 'times', operation: 'multiplication' as const };
    }
    default: {
      const [right, result] = [random.int(2, 12), random.int(2, 20)];
      return { left: right * result, right, result, operator: random.next() < 0.7 ? '/' : 'divided by', operation: 'division' as const };
    }
  }
}
