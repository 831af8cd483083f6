/**
 * The groups list's queries over a file's summaries: which groups a filter keeps, in which order,
 * and a page of rows of the result. A file may hold 100,000 groups and the page asks for a few
 * hundred rows at a time while it scrolls, so a query's result is kept as an array of group
 * positions (a few recent ones, in `GroupQueryCache`) and rows are built only for the page asked.
 */
import { Column, columnCount, type GroupSummary } from './groupSummaryShape';
import { maxMetadataChoiceKeys, maxMetadataChoices, maxRowsPerPage, type GroupFilter, type GroupQuery, type GroupRow, type MetadataChoices, type RowsPage, type SortColumn } from './inspectorModel';
import { setOwn } from '../../platform/kit/plainValues';

/**
 * The result of the filter's text search: 1 at each group position (in the summaries given) whose
 * messages hold the text. textSearch.ts makes it.
 */
export type TextMatches = Uint8Array;

/** A metadata value as the filter compares it: a string as it is, anything else as its JSON text. */
export function metadataText(value: string | number | boolean | null): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

type GroupTest = (group: GroupSummary, position: number) => boolean;

/**
 * The filter as one test per group. `textMatches` is needed when the filter has a text; without it
 * no group matches (the search has not run), rather than every group.
 */
export function groupFilterTest(filter: GroupFilter, textMatches?: TextMatches): GroupTest {
  const tests: GroupTest[] = [];
  if (filter.text !== '') tests.push((_group, position) => textMatches !== undefined && textMatches[position] === 1);
  for (const flag of filter.flags) tests.push((group) => group.flags.includes(flag));
  for (const { key, value } of filter.metadata) {
    tests.push((group) => Object.prototype.hasOwnProperty.call(group.metadata, key) && metadataText(group.metadata[key]!) === value);
  }
  for (const { series, min, max } of filter.ranges) {
    if (series === 'reward' || series === 'completionLength') {
      const column: number = series === 'reward' ? Column.Reward : Column.CompletionLength;
      tests.push((group) => {
        const columns = group.columns;
        for (let at = column; at < columns.length; at += columnCount) {
          const value = columns[at]!;
          if (value >= min && value <= max) return true;
        }
        return false;
      });
    } else {
      const name = series.slice('metric:'.length);
      tests.push((group) => {
        const key = group.metricKeys.indexOf(name);
        if (key < 0) return false;
        const keys = group.metricKeys.length;
        const values = group.metricValues;
        // NaN (a trajectory without the metric) fails both comparisons.
        for (let at = key; at < values.length; at += keys) {
          const value = values[at]!;
          if (value >= min && value <= max) return true;
        }
        return false;
      });
    }
  }
  return (group, position) => {
    for (const test of tests) if (!test(group, position)) return false;
    return true;
  };
}

export function matchesFilter(group: GroupSummary, position: number, filter: GroupFilter, textMatches?: TextMatches): boolean {
  return groupFilterTest(filter, textMatches)(group, position);
}

/** The mean characters of a group's trained turns per trajectory; 0 for a group with none. */
export function meanCompletionLength(group: GroupSummary): number {
  if (group.trajectoryCount === 0) return 0;
  let sum = 0;
  for (let at: number = Column.CompletionLength; at < group.columns.length; at += columnCount) sum += group.columns[at]!;
  return sum / group.trajectoryCount;
}

function sortValue(group: GroupSummary, column: SortColumn): number {
  switch (column) {
    case 'index':
      return group.index;
    case 'trajectories':
      return group.trajectoryCount;
    case 'mean':
    case 'std':
    case 'min':
    case 'max':
      return group.reward[column];
    case 'exceptions':
      return group.exceptionCount;
    case 'completionLength':
      return meanCompletionLength(group);
  }
}

/**
 * The positions of the groups that match the query, in its order. Ties keep the file's order
 * (ascending positions) whichever way the column sorts, so a sort is stable and pages do not shuffle.
 */
export function runGroupQuery(groups: readonly GroupSummary[], query: GroupQuery, textMatches?: TextMatches): Uint32Array {
  const test = groupFilterTest(query.filter, textMatches);
  const all = new Uint32Array(groups.length);
  let count = 0;
  for (let position = 0; position < groups.length; position++) if (test(groups[position]!, position)) all[count++] = position;
  const positions = all.subarray(0, count);
  const { column, descending } = query.sort;
  if (column === 'index') {
    // Positions are already in the file's order.
    if (descending) positions.reverse();
    return positions;
  }
  const keys = new Float64Array(positions.length);
  for (let at = 0; at < positions.length; at++) keys[at] = sortValue(groups[positions[at]!]!, column);
  return sortByKeys(positions, keys, descending);
}

const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * `positions` ordered by `keys` (one per position, in the same order), ties left in the order they
 * come. A radix sort of the keys' bits, 16 at a time: for 100,000 groups it takes a few
 * milliseconds where a sort with a comparing function takes some forty.
 */
function sortByKeys(positions: Uint32Array, keys: Float64Array, descending: boolean): Uint32Array {
  const n = positions.length;
  const words = new Uint32Array(keys.buffer, keys.byteOffset, n * 2);
  const [low, high] = littleEndian ? [0, 1] : [1, 0];
  let hi = new Uint32Array(n);
  let lo = new Uint32Array(n);
  let order: Uint32Array = positions.slice();
  for (let at = 0; at < n; at++) {
    // -0 and 0 are one key.
    if (keys[at] === 0) keys[at] = 0;
    let h = words[at * 2 + high]!;
    let l = words[at * 2 + low]!;
    // IEEE 754 bits as an unsigned number that sorts like the value: negatives flipped, positives above them.
    if (h & 0x80000000) {
      h = ~h;
      l = ~l;
    } else h |= 0x80000000;
    if (descending) {
      h = ~h;
      l = ~l;
    }
    hi[at] = h >>> 0;
    lo[at] = l >>> 0;
  }
  let hiNext = new Uint32Array(n);
  let loNext = new Uint32Array(n);
  let orderNext: Uint32Array = new Uint32Array(n);
  const counts = new Uint32Array(0x10000);
  for (let pass = 0; pass < 4; pass++) {
    const source = pass < 2 ? lo : hi;
    const shift = pass % 2 === 0 ? 0 : 16;
    counts.fill(0);
    for (let at = 0; at < n; at++) counts[(source[at]! >>> shift) & 0xffff]!++;
    // A pass where every key has the same digit changes nothing.
    if (n === 0 || counts[(source[0]! >>> shift) & 0xffff] === n) continue;
    for (let digit = 0, sum = 0; digit < 0x10000; digit++) {
      const count = counts[digit]!;
      counts[digit] = sum;
      sum += count;
    }
    for (let at = 0; at < n; at++) {
      const to = counts[(source[at]! >>> shift) & 0xffff]!++;
      hiNext[to] = hi[at]!;
      loNext[to] = lo[at]!;
      orderNext[to] = order[at]!;
    }
    [hi, hiNext] = [hiNext, hi];
    [lo, loNext] = [loNext, lo];
    [order, orderNext] = [orderNext, order];
  }
  return order;
}

/** A text that names a query exactly: two queries with the same key give the same groups in the same order. */
export function queryKey(query: GroupQuery): string {
  const { filter, sort } = query;
  return JSON.stringify([
    [...filter.flags].sort(),
    filter.ranges.map((range) => [range.series, range.min, range.max]),
    filter.metadata.map((entry) => [entry.key, entry.value]),
    filter.text,
    sort.column,
    sort.descending,
  ]);
}

/** Query results kept: the list's query, and the few it was just before (a sort clicked back and forth). */
export const cachedQueries = 4;

interface CachedResult {
  key: string;
  version: number;
  groupCount: number;
  textMatches: TextMatches | undefined;
  positions: Uint32Array;
}

/**
 * The last few query results, so that scrolling through the rows of one query filters and sorts
 * the groups once, not once per page. A result belongs to the groups' version (and their count,
 * and the text search it used): when any changes, the query runs again.
 */
export class GroupQueryCache {
  private results: CachedResult[] = [];

  positions(groups: readonly GroupSummary[], query: GroupQuery, version: number, textMatches?: TextMatches): Uint32Array {
    const key = queryKey(query);
    const masks = query.filter.text === '' ? undefined : textMatches;
    const found = this.results.findIndex((result) => result.key === key && result.version === version && result.groupCount === groups.length && result.textMatches === masks);
    if (found >= 0) {
      const [result] = this.results.splice(found, 1);
      this.results.unshift(result!);
      return result!.positions;
    }
    const positions = runGroupQuery(groups, query, masks);
    this.results.unshift({ key, version, groupCount: groups.length, textMatches: masks, positions });
    if (this.results.length > cachedQueries) this.results.length = cachedQueries;
    return positions;
  }

  /** Rows from `start` (clamped to the result), at most `count` and never more than `maxRowsPerPage`. */
  page(groups: readonly GroupSummary[], query: GroupQuery, start: number, count: number, version: number, textMatches?: TextMatches): RowsPage {
    const positions = this.positions(groups, query, version, textMatches);
    const total = positions.length;
    const first = Math.min(total, Math.max(0, Number.isFinite(start) ? Math.floor(start) : 0));
    const wanted = Math.min(maxRowsPerPage, Math.max(0, Number.isFinite(count) ? Math.floor(count) : 0));
    const end = Math.min(total, first + wanted);
    const rows: GroupRow[] = [];
    for (let at = first; at < end; at++) rows.push(toGroupRow(groups[positions[at]!]!));
    return { total, start: first, rows, version };
  }

  clear(): void {
    this.results = [];
  }
}

export function toGroupRow(group: GroupSummary): GroupRow {
  const metadata: Record<string, string> = {};
  for (const key of Object.keys(group.metadata)) setOwn(metadata, key, metadataText(group.metadata[key]!));
  return {
    index: group.index,
    line: group.line,
    trajectories: group.trajectoryCount,
    mean: group.reward.mean,
    std: group.reward.std,
    min: group.reward.min,
    max: group.reward.max,
    completionLength: meanCompletionLength(group),
    exceptions: group.exceptionCount,
    flags: [...group.flags],
    metadata,
  };
}

/** Distinct metadata keys counted across a file; keys first seen after these are not offered. */
export const maxCountedMetadataKeys = 256;
/** Distinct values counted per key; values first seen after these count as other values. */
export const maxCountedMetadataValues = 1_000;

/**
 * The metadata keys the groups have and each one's most frequent values, for the filter. Work and
 * memory are bounded whatever the file: at most `maxCountedMetadataKeys` keys and
 * `maxCountedMetadataValues` values per key are counted (a summary keeps at most 16 keys per group).
 * Keys come in order of the groups their listed values cover, so a key whose every value differs
 * (an id) comes after keys that sort the groups into a few kinds.
 */
export function metadataChoices(groups: readonly GroupSummary[]): MetadataChoices[] {
  const counts = new Map<string, { groups: number; values: Map<string, number> }>();
  for (const group of groups) {
    for (const key of Object.keys(group.metadata)) {
      let entry = counts.get(key);
      if (!entry) {
        if (counts.size >= maxCountedMetadataKeys) continue;
        counts.set(key, (entry = { groups: 0, values: new Map() }));
      }
      entry.groups++;
      const value = metadataText(group.metadata[key]!);
      const seen = entry.values.get(value);
      if (seen !== undefined) entry.values.set(value, seen + 1);
      else if (entry.values.size < maxCountedMetadataValues) entry.values.set(value, 1);
    }
  }
  const choices: (MetadataChoices & { order: number; covered: number })[] = [];
  let order = 0;
  for (const [key, entry] of counts) {
    // Most frequent first; equal counts in the order first seen (Map order, and sort is stable).
    const values = [...entry.values].sort((a, b) => b[1] - a[1]).slice(0, maxMetadataChoices);
    const covered = values.reduce((sum, [, count]) => sum + count, 0);
    choices.push({ key, values: values.map(([value, count]) => ({ value, groups: count })), otherGroups: entry.groups - covered, order: order++, covered });
  }
  choices.sort((a, b) => b.covered - a.covered || a.order - b.order);
  return choices.slice(0, maxMetadataChoiceKeys).map(({ key, values, otherGroups }) => ({ key, values, otherGroups }));
}
