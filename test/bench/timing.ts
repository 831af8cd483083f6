/**
 * How suites time their work, in milliseconds. A comparison times both sides alternately (ABBA),
 * so that load from elsewhere on the machine, garbage left by the other side and CPU frequency
 * changes hit both alike.
 */

/**
 * Times `ours` and `theirs` in rounds of ours, theirs, theirs, ours (after `warmups` untimed calls
 * of each): `rounds` rounds give 2 × `rounds` durations per side.
 */
export async function timeAlternately(ours: () => unknown, theirs: () => unknown, rounds: number, warmups = 1): Promise<{ ours: number[]; theirs: number[] }> {
  for (let index = 0; index < warmups; index++) {
    await ours();
    await theirs();
  }
  const times = { ours: [] as number[], theirs: [] as number[] };
  for (let round = 0; round < rounds; round++) {
    times.ours.push(await timeOnce(ours));
    times.theirs.push(await timeOnce(theirs));
    times.theirs.push(await timeOnce(theirs));
    times.ours.push(await timeOnce(ours));
  }
  return times;
}

async function timeOnce(work: () => unknown): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}
