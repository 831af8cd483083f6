/**
 * Timing ours against a peer fairly: rounds of each, alternating which goes first, so that load
 * elsewhere on the machine hits both alike.
 */

/** Milliseconds `work` took. */
export async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/** `rounds` timings of each, ours first in even rounds and the peer first in odd ones. */
export async function alternateRounds(rounds: number, ours: () => Promise<unknown>, peer: () => Promise<unknown>): Promise<{ ours: number[]; peer: number[] }> {
  const mine: number[] = [];
  const theirs: number[] = [];
  for (let round = 0; round < rounds; round++) {
    if (round % 2 === 0) {
      mine.push(await timed(ours));
      theirs.push(await timed(peer));
    } else {
      theirs.push(await timed(peer));
      mine.push(await timed(ours));
    }
  }
  return { ours: mine, peer: theirs };
}
