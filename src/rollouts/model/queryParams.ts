/**
 * A groups-list query as it arrives from the page, checked before the host runs it: the page is not
 * trusted, so only own properties are read, every list and text has its limit (`queryLimits`), flags
 * and columns must be known ones and numbers finite. What comes back is a fresh query built from the
 * checked fields, never the object that arrived.
 */
import { ProtocolError, ownValue, tooLong } from '../../platform/pages/wire';
import { groupFlags, type GroupFlag } from './groupSummaryShape';
import { queryLimits, type GroupFilter, type GroupQuery, type SeriesName, type SortColumn, type ValueRange } from './inspectorModel';
import { maxSelectedGroups, type GroupScope } from '../protocol';

const sortColumns: readonly SortColumn[] = ['index', 'trajectories', 'mean', 'std', 'min', 'max', 'exceptions', 'completionLength'];

export function parseGroupQuery(raw: unknown): GroupQuery {
  const query = record(raw, 'the query');
  const sort = record(ownValue(query, 'sort'), 'the query\'s "sort"');
  const column = ownValue(sort, 'column');
  if (typeof column !== 'string' || !sortColumns.includes(column as SortColumn)) throw new ProtocolError(`the sort column must be one of ${sortColumns.join(', ')}`);
  const descending = ownValue(sort, 'descending');
  if (typeof descending !== 'boolean') throw new ProtocolError('the sort\'s "descending" must be true or false');
  return { filter: parseFilter(ownValue(query, 'filter')), sort: { column: column as SortColumn, descending } };
}

/** The groups an action names: a checked list of positions (each once, in file order), or a checked query. */
export function parseGroupScope(raw: unknown): GroupScope {
  const scope = record(raw, 'the scope');
  const kind = ownValue(scope, 'kind');
  if (kind === 'matching') return { kind, query: parseGroupQuery(ownValue(scope, 'query')) };
  if (kind !== 'selected') throw new ProtocolError('the scope\'s "kind" must be "selected" or "matching"');
  const indices = ownValue(scope, 'indices');
  if (!Array.isArray(indices) || indices.length > maxSelectedGroups || !indices.every((index) => Number.isSafeInteger(index) && (index as number) >= 0)) {
    throw new ProtocolError(`the scope's "indices" must be at most ${maxSelectedGroups.toLocaleString('en-US')} group positions`);
  }
  return { kind, indices: [...new Set(indices as number[])].sort((a, b) => a - b) };
}

function parseFilter(raw: unknown): GroupFilter {
  const filter = record(raw, 'the query\'s "filter"');

  const flags: GroupFlag[] = [];
  for (const flag of list(ownValue(filter, 'flags'), 'flags', groupFlags.length)) {
    if (typeof flag !== 'string' || !groupFlags.includes(flag as GroupFlag)) throw new ProtocolError(`a flag must be one of ${groupFlags.join(', ')}`);
    if (!flags.includes(flag as GroupFlag)) flags.push(flag as GroupFlag);
  }

  const ranges: ValueRange[] = list(ownValue(filter, 'ranges'), 'ranges', queryLimits.ranges).map((item) => {
    const range = record(item, 'a range');
    const series = ownValue(range, 'series');
    if (typeof series !== 'string' || !(series === 'reward' || series === 'completionLength' || series.startsWith('metric:'))) {
      throw new ProtocolError('a range\'s series must be "reward", "completionLength" or "metric:" and a metric\'s name');
    }
    if (series === 'metric:') throw new ProtocolError("a range's metric has no name");
    text(series, "a range's series", queryLimits.keyChars + 'metric:'.length);
    const min = finite(ownValue(range, 'min'), "a range's minimum");
    const max = finite(ownValue(range, 'max'), "a range's maximum");
    if (min > max) throw new ProtocolError(`a range's minimum (${min}) is above its maximum (${max})`);
    return { series: series as SeriesName, min, max };
  });

  const metadata = list(ownValue(filter, 'metadata'), 'metadata', queryLimits.metadata).map((item) => {
    const entry = record(item, 'a metadata filter');
    return { key: text(ownValue(entry, 'key'), 'a metadata key', queryLimits.keyChars), value: text(ownValue(entry, 'value'), 'a metadata value', queryLimits.valueChars) };
  });

  return { flags, ranges, metadata, text: text(ownValue(filter, 'text'), 'the search text', queryLimits.textChars) };
}

function record(raw: unknown, label: string): Record<string, unknown> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new ProtocolError(`${label} must be an object`);
  return raw as Record<string, unknown>;
}

/** The items of an array of at most `max` (read by index, so a sparse or odd array costs no more). */
function list(raw: unknown, name: string, max: number): unknown[] {
  if (!Array.isArray(raw)) throw new ProtocolError(`the filter's "${name}" must be a list`);
  if (raw.length > max) throw new ProtocolError(`the filter has ${raw.length} ${name}; at most ${max}`);
  const items: unknown[] = [];
  for (let at = 0; at < raw.length; at++) items.push(ownValue(raw as unknown as Record<string, unknown>, String(at)));
  return items;
}

function text(raw: unknown, label: string, max: number): string {
  if (typeof raw !== 'string') throw new ProtocolError(`${label} must be a text`);
  if (raw.length > max) throw new ProtocolError(tooLong(label, raw.length, max), 'too-long');
  return raw;
}

function finite(raw: unknown, label: string): number {
  if (typeof raw !== 'number' || !Number.isFinite(raw)) throw new ProtocolError(`${label} must be a finite number`);
  return raw;
}
