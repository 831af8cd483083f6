/**
 * Which points of a long series to draw: largest-triangle-three-buckets, which keeps the shape a
 * person sees (each bucket's point is the one making the largest triangle with the point chosen
 * before it and the mean of the bucket after), with three guarantees on top:
 * - the first and the last point are always drawn (the latest value of a live run is never dropped);
 * - the highest and the lowest point of the series are always drawn (a spike is never smoothed away
 *   by the choice of points: the bucket holding one draws it);
 * - at most `budget` points are drawn (at least 4), whatever the series' length.
 *
 * Points whose y is not finite are skipped: a chart draws nothing for them.
 */
export function largestTriangleThreeBuckets(xs: ArrayLike<number>, ys: ArrayLike<number>, budget: number): number[] {
  // The drawable points' indices, in a typed array (a chart redraws on every zoom: no boxed numbers).
  let count = 0;
  for (let index = 0; index < ys.length; index++) if (Number.isFinite(ys[index]!) && Number.isFinite(xs[index]!)) count++;
  const finite = drawableIndices(xs, ys, count);
  if (count <= Math.max(4, Math.floor(budget))) return Array.from(finite);
  const target = Math.max(4, Math.floor(budget));

  let lowest = finite[0]!;
  let highest = finite[0]!;
  for (let at = 0; at < count; at++) {
    const index = finite[at]!;
    if (ys[index]! < ys[lowest]!) lowest = index;
    if (ys[index]! > ys[highest]!) highest = index;
  }

  const chosen: number[] = [finite[0]!];
  // The points between the first and the last, in `target - 3` buckets of about equal count: one
  // place is kept for the bucket that holds both the highest and the lowest point, if one does.
  const buckets = target - 3;
  const size = (count - 2) / buckets;
  let previous = finite[0]!;
  for (let bucket = 0; bucket < buckets; bucket++) {
    const start = 1 + Math.floor(bucket * size);
    const end = Math.min(count - 1, 1 + Math.floor((bucket + 1) * size));
    // The mean of the next bucket (the last point for the last bucket).
    const nextStart = end;
    const nextEnd = Math.min(count, 1 + Math.floor((bucket + 2) * size));
    let meanX = 0;
    let meanY = 0;
    const nextCount = Math.max(1, nextEnd - nextStart);
    for (let at = nextStart; at < nextStart + nextCount && at < count; at++) {
      meanX += xs[finite[at]!]!;
      meanY += ys[finite[at]!]!;
    }
    meanX /= nextCount;
    meanY /= nextCount;

    let best = finite[start]!;
    let bestArea = -1;
    const extremes: number[] = [];
    for (let at = start; at < end; at++) {
      const index = finite[at]!;
      if (index === lowest || index === highest) extremes.push(index);
      const area = Math.abs((xs[previous]! - meanX) * (ys[index]! - ys[previous]!) - (xs[previous]! - xs[index]!) * (meanY - ys[previous]!));
      if (area > bestArea) {
        bestArea = area;
        best = index;
      }
    }
    if (extremes.length > 0) chosen.push(...extremes);
    else chosen.push(best);
    previous = chosen[chosen.length - 1]!;
  }
  chosen.push(finite[count - 1]!);
  return chosen;
}

function drawableIndices(xs: ArrayLike<number>, ys: ArrayLike<number>, count: number): Int32Array {
  const indices = new Int32Array(count);
  let at = 0;
  for (let index = 0; index < ys.length; index++) if (Number.isFinite(ys[index]!) && Number.isFinite(xs[index]!)) indices[at++] = index;
  return indices;
}
