/**
 * Log-probabilities of an answer's tokens in the OpenAI shape (`choices[].logprobs.content[]`, each
 * `{token, logprob, bytes, top_logprobs}`), given when a request asks with `"logprobs": true`. The
 * numbers depend only on the model and the answer, so the same answer gets the same figures: most tokens sure
 * and a few doubtful, so a heat map of them has something to show.
 */
import { hashString, Prng } from './prng';

/** The most alternatives per token a request may ask for, as the OpenAI API allows. */
export const maxTopLogprobs = 20;

export interface TokenLogprobEntry {
  token: string;
  logprob: number;
  bytes: number[];
  top_logprobs: { token: string; logprob: number; bytes: number[] }[];
}

export interface ChoiceLogprobs {
  content: TokenLogprobEntry[];
  refusal: null;
}

const alternatives = [' the', ' a', ' and', ' to', ' of', '.', ',', ' is', ' it', ' that', ' in', ' for', ' on', ' with', ' as', ' this', ' be', ' at', ' by', ' or'];

/** The answer's tokens with their log-probabilities and `top` alternatives each (the token itself first). */
export function tokenLogprobs(tokens: readonly string[], top: number, seed: string): ChoiceLogprobs {
  const random = new Prng(hashString(`logprobs\u0000${seed}`));
  const content = tokens.map((token): TokenLogprobEntry => {
    // Mostly near 0 (sure), one token in eight between −4 and −0.5 (doubtful).
    const logprob = round(random.next() < 0.125 ? -0.5 - random.next() * 3.5 : -random.next() * 0.2);
    const others: TokenLogprobEntry['top_logprobs'] = [];
    let below = logprob;
    for (let at = 0; others.length < top - 1 && at < alternatives.length; at++) {
      const candidate = alternatives[(at + random.int(0, alternatives.length - 1)) % alternatives.length]!;
      if (candidate === token || others.some((other) => other.token === candidate)) continue;
      below = round(below - 0.5 - random.next() * 2);
      others.push({ token: candidate, logprob: below, bytes: utf8(candidate) });
    }
    const top_logprobs = top > 0 ? [{ token, logprob, bytes: utf8(token) }, ...others] : [];
    return { token, logprob, bytes: utf8(token), top_logprobs };
  });
  return { content, refusal: null };
}

function utf8(text: string): number[] {
  return [...Buffer.from(text, 'utf8')];
}

function round(value: number): number {
  return Math.round(value * 1e4) / 1e4;
}
