/** Deterministic text for the generated files of the benchmark: every run reads the same bytes. */

/** A small deterministic generator (mulberry32). */
export function randomFrom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const vocabulary =
  'the a model answer step first then because so we check value result number sum total compute add multiply divide equals therefore final question given known next try again correct wrong half twice three four seven eleven table row column lookup weather city price order'.split(
    ' ',
  );

/** A sentence of `words` words, ending in a full stop. */
export function sentence(random: () => number, words: number): string {
  const parts: string[] = [];
  for (let index = 0; index < words; index++) parts.push(vocabulary[Math.floor(random() * vocabulary.length)]!);
  return `${parts.join(' ')}.`;
}
