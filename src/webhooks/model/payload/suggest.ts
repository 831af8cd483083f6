/**
 * "Did you mean" candidates: names within a small edit distance (adjacent swaps count as one edit),
 * with case differences forgiven first.
 */

export function closestNames(name: string, candidates: readonly string[], limit = 3): string[] {
  const wanted = name.trim();
  if (wanted.length === 0) return [];
  const lower = wanted.toLowerCase();
  const scored: { candidate: string; score: number }[] = [];
  for (const candidate of candidates) {
    if (candidate === wanted) {
      // Only spaces differ (`${ project_name }`).
      if (wanted !== name) scored.push({ candidate, score: 0 });
      continue;
    }
    const candidateLower = candidate.toLowerCase();
    if (candidateLower === lower) {
      scored.push({ candidate, score: 0.5 });
      continue;
    }
    const allowed = Math.max(1, Math.floor(Math.max(lower.length, candidateLower.length) / 3));
    const distance = editDistance(lower, candidateLower, allowed);
    if (distance <= allowed) scored.push({ candidate, score: distance });
    else if (lower.length >= 4 && candidateLower.startsWith(lower)) scored.push({ candidate, score: allowed + 0.5 });
  }
  scored.sort((a, b) => a.score - b.score || a.candidate.localeCompare(b.candidate));
  return scored.slice(0, limit).map((entry) => entry.candidate);
}

/** Optimal-string-alignment distance, giving up (returning limit + 1) once it must exceed `limit`. */
export function editDistance(a: string, b: string, limit = Infinity): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  const width = b.length + 1;
  let previousPrevious = new Array<number>(width).fill(0);
  let previous = Array.from({ length: width }, (_, index) => index);
  let current = new Array<number>(width).fill(0);
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowBest = current[0];
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let value = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1)) {
        value = Math.min(value, previousPrevious[j - 2] + 1);
      }
      current[j] = value;
      if (value < rowBest) rowBest = value;
    }
    if (rowBest > limit) return limit + 1;
    [previousPrevious, previous, current] = [previous, current, previousPrevious];
  }
  return previous[b.length];
}
