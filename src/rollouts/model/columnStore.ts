/**
 * Where the numbers of many group summaries live: shared blocks, and shared lists of finish reasons
 * and metric keys, so that a file of 100,000 trajectories keeps few objects for the collector.
 */

/**
 * The numbers of many groups' summaries, handed out as views into shared blocks (and their lists
 * of finish reasons and metric keys, shared when equal to the previous group's): a typed array of
 * its own per group costs an allocation outside the heap that the collector tracks one by one,
 * which made keeping 12,500 summaries measurably slower. A block lives as long as any group that
 * took from it, so one reader (one file) should own a store.
 */
export class ColumnStore {
  private block = new ArrayBuffer(0);
  /** Numbers of the block handed out; past its end at first, so the first take makes a block. */
  private used = Infinity;

  constructor(private readonly blockLength = 16_384) {}

  take(length: number): Float64Array {
    if (length * 4 > this.blockLength) return new Float64Array(length);
    if (this.used + length > this.blockLength) {
      this.block = new ArrayBuffer(this.blockLength * Float64Array.BYTES_PER_ELEMENT);
      this.used = 0;
    }
    // A view made from the buffer: `subarray` looks up a species constructor on every call.
    const view = new Float64Array(this.block, this.used * Float64Array.BYTES_PER_ELEMENT, length);
    this.used += length;
    return view;
  }

  private lastReasons: string[] = [];
  private lastKeys: string[] = [];
  /** Lists of one reason repeated, by reason and then length: what most groups' choices give. */
  private readonly uniformReasons = new Map<string, string[][]>();

  /**
   * A list equal to `reasons` (which the caller reuses): one already handed out when the reasons
   * are one reason repeated or the previous group's, else a copy.
   */
  sharedReasons(reasons: readonly string[]): string[] {
    const uniform = reasons.length > 0 && reasons.length <= maxUniformReasons && isUniform(reasons);
    if (uniform) {
      let byLength = this.uniformReasons.get(reasons[0]!);
      if (!byLength) {
        if (this.uniformReasons.size >= maxUniformReasonKinds) this.uniformReasons.clear();
        byLength = [];
        this.uniformReasons.set(reasons[0]!, byLength);
      }
      return (byLength[reasons.length] ??= reasons.slice());
    }
    if (!sameStrings(reasons, this.lastReasons)) this.lastReasons = reasons.slice();
    return this.lastReasons;
  }

  /** A list equal to `keys` (which the caller reuses): the previous group's when equal, else a copy. */
  sharedKeys(keys: readonly string[]): string[] {
    if (!sameStrings(keys, this.lastKeys)) this.lastKeys = keys.slice();
    return this.lastKeys;
  }
}

/** Bounds of the lists of one repeated reason kept for sharing: reasons per list, and distinct reasons. */
const maxUniformReasons = 64;
const maxUniformReasonKinds = 16;

function isUniform(strings: readonly string[]): boolean {
  const first = strings[0];
  for (let index = 1; index < strings.length; index++) if (strings[index] !== first) return false;
  return true;
}

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false;
  return true;
}
