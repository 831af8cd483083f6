/**
 * A word-level difference between two completions, for the group view: how a sibling's turn
 * differs from the best sibling's turn at the same place. Texts are cut into tokens (words, runs of
 * white space, and every other character on its own), so joining the spans gives the texts back
 * exactly: the `same` and `removed` spans make `from`, the `same` and `added` spans make `to`.
 *
 * The common beginning and end are set aside first (siblings of one prompt often share most of
 * their words), then Myers' O((N+M)·D) algorithm compares what is left, with D capped: two middles
 * that differ in more than `maxEditTokens` tokens are shown as one removal and one addition, which
 * is still a true difference, only not the smallest.
 */

/** A span of a completion compared with the best sibling's: `added` is in this one only, `removed` in the best only. */
export interface DiffSpan {
  kind: 'same' | 'added' | 'removed';
  text: string;
}

/** Words (tokens) either text may have before the difference is not worked out: a compared turn's cap. */
export const maxDiffWords = 3_000;

/** Edits Myers' search follows before giving up on the smallest difference; its trace holds about this number squared of integers. */
export const maxEditTokens = 300;

const tokenPattern = /[\p{L}\p{N}\p{M}_]+|\s+|[^]/gu;

/**
 * The difference from `from` (the best sibling's turn) to `to` (this turn): `removed` is in `from`
 * only, `added` in `to` only. Undefined when either text has more than `maxTokens` tokens.
 */
export function wordDiff(from: string, to: string, maxTokens: number = maxDiffWords): DiffSpan[] | undefined {
  const fromTokens = tokenize(from, maxTokens);
  const toTokens = tokenize(to, maxTokens);
  if (!fromTokens || !toTokens) return undefined;
  if (from === to) return from === '' ? [] : [{ kind: 'same', text: from }];

  // Tokens as small integers, so the search compares numbers.
  const ids = new Map<string, number>();
  const idsOf = (tokens: string[]): Int32Array => {
    const result = new Int32Array(tokens.length);
    for (let at = 0; at < tokens.length; at++) {
      let id = ids.get(tokens[at]!);
      if (id === undefined) ids.set(tokens[at]!, (id = ids.size));
      result[at] = id;
    }
    return result;
  };
  const a = idsOf(fromTokens);
  const b = idsOf(toTokens);

  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (suffix < a.length - prefix && suffix < b.length - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++;

  const spans = new SpanBuilder();
  spans.push('same', fromTokens, 0, prefix);
  const middleA = a.subarray(prefix, a.length - suffix);
  const middleB = b.subarray(prefix, b.length - suffix);
  const edits = middleA.length > 0 && middleB.length > 0 ? myers(middleA, middleB, maxEditTokens) : undefined;
  if (edits) {
    // Runs of one operation: 0 same, 1 removed (from `from`), 2 added (from `to`).
    let x = prefix;
    let y = prefix;
    for (const op of edits) {
      if (op === 0) {
        spans.push('same', fromTokens, x++, x);
        y++;
      } else if (op === 1) spans.push('removed', fromTokens, x++, x);
      else spans.push('added', toTokens, y++, y);
    }
  } else {
    spans.push('removed', fromTokens, prefix, a.length - suffix);
    spans.push('added', toTokens, prefix, b.length - suffix);
  }
  spans.push('same', fromTokens, a.length - suffix, a.length);
  return tidy(spans.spans);
}

/** The tokens of a text, or undefined as soon as there are more than `max`. */
function tokenize(text: string, max: number): string[] | undefined {
  // Every token is at least one character: a text with no more characters than the cap needs no count.
  const tokens: string[] = [];
  tokenPattern.lastIndex = 0;
  for (let match = tokenPattern.exec(text); match; match = tokenPattern.exec(text)) {
    if (tokens.length >= max) return undefined;
    tokens.push(match[0]);
  }
  return tokens;
}

class SpanBuilder {
  readonly spans: DiffSpan[] = [];

  push(kind: DiffSpan['kind'], tokens: string[], start: number, end: number): void {
    if (end <= start) return;
    const text = end - start === 1 ? tokens[start]! : tokens.slice(start, end).join('');
    const last = this.spans[this.spans.length - 1];
    if (last && last.kind === kind) last.text += text;
    else this.spans.push({ kind, text });
  }
}

/**
 * Myers' shortest edit script from `a` to `b` as operations (0 keep, 1 delete from a, 2 insert
 * from b), or undefined when it needs more than `maxD` edits.
 */
function myers(a: Int32Array, b: Int32Array, maxD: number): Uint8Array | undefined {
  const n = a.length;
  const m = b.length;
  const limit = Math.min(maxD, n + m);
  const offset = limit + 1;
  const v = new Int32Array(2 * limit + 3);
  // v as it was before each round d, for k in [-d-1, d+1], to walk back along.
  const trace: Int32Array[] = [];
  for (let d = 0; d <= limit; d++) {
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(trace, d, n, m);
    }
  }
  return undefined;
}

function backtrack(trace: Int32Array[], depth: number, n: number, m: number): Uint8Array {
  // (n + m − depth) / 2 tokens kept, `depth` edits.
  const ops = new Uint8Array((n + m + depth) / 2);
  let at = ops.length;
  let x = n;
  let y = m;
  for (let d = depth; d > 0; d--) {
    const before = trace[d]!;
    // before[i] is v[k] for k = i - d - 1.
    const k = x - y;
    const down = k === -d || (k !== d && before[k - 1 + d + 1]! < before[k + 1 + d + 1]!);
    const previousK = down ? k + 1 : k - 1;
    const previousX = before[previousK + d + 1]!;
    const previousY = previousX - previousK;
    // The diagonal (kept tokens) after the edit, then the edit itself.
    const startX = down ? previousX : previousX + 1;
    while (x > startX) {
      ops[--at] = 0;
      x--;
      y--;
    }
    ops[--at] = down ? 2 : 1;
    x = previousX;
    y = previousY;
  }
  while (x > 0) {
    ops[--at] = 0;
    x--;
  }
  return ops;
}

/**
 * Makes a difference easier to read: white space alone between two changes joins them (so "a b c"
 * against "x y z" is one removal and one addition, not three of each), and in each stretch of
 * changes what was removed comes before what was added.
 */
function tidy(spans: DiffSpan[]): DiffSpan[] {
  const result: DiffSpan[] = [];
  let removed = '';
  let added = '';
  const flush = (): void => {
    if (removed) result.push({ kind: 'removed', text: removed });
    if (added) result.push({ kind: 'added', text: added });
    removed = '';
    added = '';
  };
  for (let at = 0; at < spans.length; at++) {
    const span = spans[at]!;
    if (span.kind === 'removed') removed += span.text;
    else if (span.kind === 'added') added += span.text;
    else if ((removed || added) && at + 1 < spans.length && /^\s+$/u.test(span.text)) {
      removed += span.text;
      added += span.text;
    } else {
      flush();
      const last = result[result.length - 1];
      if (last && last.kind === 'same') last.text += span.text;
      else result.push({ kind: 'same', text: span.text });
    }
  }
  flush();
  return result;
}
