/**
 * How repetitive a text is: the share of its word 4-grams that repeat an earlier 4-gram of the
 * same text, i.e. 1 − distinct / total. A model stuck in a loop ("the answer is the answer is …")
 * scores near 1; ordinary prose scores near 0. Words are runs of characters other than white
 * space, compared exactly.
 *
 * A loop runs to the end of the completion (the model never leaves it), so the measure looks at
 * the end: only the last `repetitionWindow` characters are counted, and only when the text's last
 * `endingProbe` characters occur earlier among its last `probeReach` characters, i.e. when the text
 * ends in a loop whose period is at most half the window. A text whose ending is not repeated is
 * not in a loop and scores 0 without counting; the probe is a native substring search, so ordinary
 * answers cost little (it is most of what reading a rollout file spends beyond JSON.parse, which is
 * why it reaches no further). A longer period could not score above 0.5 anyway: under two periods
 * fit in the window, so fewer than half of its 4-grams can repeat. A text with fewer than
 * `minimumNgrams` 4-grams scores 0: too short to call repetitive.
 *
 * 4-grams are compared by a 32-bit hash, so two different 4-grams may rarely count as one; with at
 * most a hundred 4-grams in the window the chance is about one in a hundred thousand per text.
 */

export const repetitionWindow = 512;
export const minimumNgrams = 8;
export const endingProbe = 24;
/** Characters searched for an earlier occurrence of the ending: periods up to half the window. */
export const probeReach = repetitionWindow / 2 + endingProbe;
const ngramSize = 4;

export function repetitionRatio(text: string): number {
  const from = Math.max(0, text.length - repetitionWindow);
  if (text.length - from < 2 * endingProbe) return 0;
  const ending = text.slice(text.length - endingProbe);
  // The first occurrence in reach: a forward search is much faster than a backward one.
  if (text.indexOf(ending, Math.max(from, text.length - probeReach)) >= text.length - endingProbe) return 0;
  // Word hashes of the window, then its distinct 4-grams: in scratch tables reused from call to call
  // (a window of `repetitionWindow` characters holds at most half as many words).
  let words = 0;
  let hash = 0;
  let inWord = false;
  const length = text.length;
  for (let at = from; at < length; at++) {
    const code = text.charCodeAt(at);
    if (code <= 0x20 || code === 0xa0 || code === 0x3000) {
      if (inWord) wordHashes[words++] = hash;
      inWord = false;
    } else {
      if (!inWord) hash = 0x811c9dc5;
      // FNV-1a over UTF-16 code units.
      hash = Math.imul(hash ^ code, 0x01000193);
      inWord = true;
    }
  }
  if (inWord) wordHashes[words++] = hash;
  // A window that starts mid-word measures a fragment; drop it.
  const first = from > 0 && words > 0 && text.charCodeAt(from - 1) > 0x20 && text.charCodeAt(from) > 0x20 ? 1 : 0;
  const total = words - first - ngramSize + 1;
  if (total < minimumNgrams) return 0;
  // A stamp per call marks the slots in use, so the table is never cleared.
  stamp = (stamp + 1) | 0;
  if (stamp === 0) {
    slotStamps.fill(0);
    stamp = 1;
  }
  let distinct = 0;
  for (let index = first; index < first + total; index++) {
    let ngram = 0;
    for (let offset = 0; offset < ngramSize; offset++) ngram = Math.imul(ngram ^ wordHashes[index + offset]!, 0x9e3779b1) + offset;
    ngram |= 0;
    // Open addressing with linear probing; the table is at least twice the 4-grams, so a free slot is near.
    let slot = Math.imul(ngram, 0x85ebca6b) >>> (32 - slotBits);
    for (;;) {
      if (slotStamps[slot] !== stamp) {
        slotStamps[slot] = stamp;
        slotKeys[slot] = ngram;
        distinct++;
        break;
      }
      if (slotKeys[slot] === ngram) break;
      slot = (slot + 1) & (slotCount - 1);
    }
  }
  return 1 - distinct / total;
}

const wordHashes = new Int32Array(repetitionWindow + 1);
const slotBits = Math.ceil(Math.log2(repetitionWindow)) + 1;
const slotCount = 1 << slotBits;
const slotKeys = new Int32Array(slotCount);
const slotStamps = new Int32Array(slotCount);
let stamp = 0;
