/**
 * A rollout file made up for the page's tests and benchmark, consistent with the inspector's model:
 * groups generated from their index (so 100,000 of them cost nothing until asked for), the file's
 * state and statistics, rows answered for a query as the host answers them (filter, sort, page), and
 * a group's detail with siblings sorted by reward, diffs against the best and token log-probabilities.
 */
import type { GroupFlag } from '../../../src/rollouts/model/groupSummaryShape';
import type { GroupDetail, GroupQuery, GroupRow, MessageView, RolloutFileState, RowsPage, SeriesName, TrajectoryView } from '../../../src/rollouts/model/inspectorModel';
import type { SeriesStatistics } from '../../../src/rollouts/model/rolloutStatistics';

export const hostileText = '<img src=x onerror="window.__pwned=1"><b>bold</b>';

export interface FixtureGroup {
  row: GroupRow;
  rewards: number[];
  lengths: number[];
}

export interface FixtureFile {
  state: RolloutFileState;
  group(index: number): FixtureGroup;
  rows(query: GroupQuery, start: number, count: number): RowsPage;
  detail(index: number): GroupDetail | null;
}

/** A deterministic number in [0, 1) from two integers. */
function noise(a: number, b: number): number {
  let x = (a * 374761393 + b * 668265263) | 0;
  x = Math.imul(x ^ (x >>> 13), 1274126177);
  x ^= x >>> 16;
  return (x >>> 0) / 4294967296;
}

const tasks = ['math', 'code', 'search', 'tool-use'];

function makeGroup(index: number, siblings: number, hostile: boolean): FixtureGroup {
  const rewards: number[] = [];
  const lengths: number[] = [];
  const allSame = index % 7 === 3;
  for (let position = 0; position < siblings; position++) {
    rewards.push(allSame ? 1 : Math.round(noise(index, position) * 100) / 100);
    lengths.push(40 + Math.floor(noise(position, index) * 900));
  }
  const mean = rewards.reduce((sum, value) => sum + value, 0) / siblings;
  const std = Math.sqrt(rewards.reduce((sum, value) => sum + (value - mean) ** 2, 0) / siblings);
  const flags: GroupFlag[] = [];
  if (std === 0) flags.push('noSignal');
  if (std > 0.3) flags.push('highVariance');
  const exceptions = index % 11 === 5 ? 2 : 0;
  if (exceptions) flags.push('exceptions');
  if (index % 13 === 2) flags.push('truncated');
  if (index % 17 === 4) flags.push('emptyOrRepetitive');
  if (index % 19 === 6) flags.push('doNothingSibling');
  const metadata: Record<string, string> = { task: tasks[index % tasks.length]!, split: index % 5 === 0 ? 'eval' : 'train' };
  if (hostile && index === 1) metadata.note = hostileText;
  const row: GroupRow = {
    index,
    line: index,
    trajectories: siblings,
    mean,
    std,
    min: Math.min(...rewards),
    max: Math.max(...rewards),
    completionLength: lengths.reduce((sum, value) => sum + value, 0) / siblings,
    exceptions,
    flags,
    metadata,
  };
  return { row, rewards, lengths };
}

function series(values: number[]): SeriesStatistics {
  const bins = 20;
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  for (const value of values) {
    min = Math.min(min, value);
    max = Math.max(max, value);
    sum += value;
  }
  const mean = sum / values.length;
  let squares = 0;
  for (const value of values) squares += (value - mean) ** 2;
  const counts = new Array<number>(bins).fill(0);
  const width = (max - min) / bins;
  for (const value of values) counts[width > 0 ? Math.min(bins - 1, Math.floor((value - min) / width)) : 0]!++;
  return { count: values.length, mean, std: Math.sqrt(squares / values.length), min, max, histogram: { min, max, counts }, histogramOf: values.length };
}

export interface FixtureOptions {
  siblings?: number;
  /** Puts markup-looking text into metadata, a message and a problem. */
  hostile?: boolean;
  fileName?: string;
  version?: number;
  groupsNotKept?: number;
}

export function generatedFile(groups: number, options: FixtureOptions = {}): FixtureFile {
  const siblings = options.siblings ?? 8;
  const hostile = options.hostile ?? false;
  const group = (index: number) => makeGroup(index, siblings, hostile);
  const rows = fixtureRows(groups, siblings, hostile);
  // Statistics from (at most) the first 20,000 groups' values: enough for the shape, quick for 100,000.
  const rewards: number[] = [];
  const lengths: number[] = [];
  const flags: Record<GroupFlag, number> = { noSignal: 0, highVariance: 0, exceptions: 0, truncated: 0, emptyOrRepetitive: 0, doNothingSibling: 0 };
  let exceptions = 0;
  const sampled = Math.min(groups, 20_000);
  for (let index = 0; index < sampled; index++) {
    const made = group(index);
    rewards.push(...made.rewards);
    lengths.push(...made.lengths);
    for (const flag of made.row.flags) flags[flag]++;
    exceptions += made.row.exceptions;
  }
  const scale = groups / Math.max(1, sampled);
  for (const flag of Object.keys(flags) as GroupFlag[]) flags[flag] = Math.round(flags[flag] * scale);
  const turns = series(rewards.map((reward, at) => Math.max(1, Math.round(reward * 6 + noise(at, 3) * 3))));
  const state: RolloutFileState = {
    fileName: options.fileName ?? 'rollouts-step-120.jsonl',
    format: 'jsonl',
    version: options.version ?? 1,
    statistics: {
      groups,
      trajectories: groups * siblings,
      exceptions: Math.round(exceptions * scale),
      reward: series(rewards),
      completionLength: series(lengths),
      metrics: { turns, tool_calls: series(rewards.map((_, at) => Math.floor(noise(at, 9) * 5))) },
      finishReasons: { stop: Math.round(groups * siblings * 1.7), length: Math.round(groups * siblings * 0.12), tool_calls: Math.round(groups * siblings * 0.9) },
      flags,
    },
    problems: [{ line: 3, offset: 120, bytes: 90, severity: 'error', message: hostile ? `Unexpected token ${hostileText}` : 'Not JSON: Unexpected token } at position 88' }],
    problemsNotListed: 0,
    groupsNotKept: options.groupsNotKept ?? 0,
    metadata: [
      { key: 'task', values: tasks.map((value, at) => ({ value, groups: Math.ceil((groups - at) / tasks.length) })), otherGroups: 0 },
      {
        key: 'split',
        values: [
          { value: 'train', groups: groups - Math.ceil(groups / 5) },
          { value: 'eval', groups: Math.ceil(groups / 5) },
        ],
        otherGroups: 0,
      },
    ],
  };
  return {
    state,
    group,
    rows: (query, start, count) => rows(query, start, count, state.version),
    detail: (index) => (index >= 0 && index < groups ? groupDetail(group(index), hostile) : null),
  };
}

function valuesOf(made: FixtureGroup, name: SeriesName): number[] {
  if (name === 'reward') return made.rewards;
  if (name === 'completionLength') return made.lengths;
  return [];
}

/** The rows of a generated file of `groups` groups as the host answers them, without the file's statistics (cheap to set up anywhere, a page included). */
export function fixtureRows(groups: number, siblings = 8, hostile = false): (query: GroupQuery, start: number, count: number, version: number) => RowsPage {
  const group = (index: number) => makeGroup(index, siblings, hostile);
  return (query, start, count, version) => answerRows(groups, group, query, start, count, version);
}

function answerRows(groups: number, group: (index: number) => FixtureGroup, query: GroupQuery, start: number, count: number, version: number): RowsPage {
  const { filter, sort } = query;
  const plain = filter.flags.length === 0 && filter.ranges.length === 0 && filter.metadata.length === 0 && filter.text === '' && sort.column === 'index';
  if (plain) {
    const rows: GroupRow[] = [];
    for (let at = 0; at < count; at++) {
      const position = start + at;
      if (position >= groups) break;
      rows.push(group(sort.descending ? groups - 1 - position : position).row);
    }
    return { total: groups, start, rows, version };
  }
  const matching: GroupRow[] = [];
  for (let index = 0; index < groups; index++) {
    const made = group(index);
    const row = made.row;
    if (!filter.flags.every((flag) => row.flags.includes(flag))) continue;
    if (!filter.ranges.every((range) => valuesOf(made, range.series).some((value) => value >= range.min && value <= range.max))) continue;
    if (!filter.metadata.every((entry) => row.metadata[entry.key] === entry.value)) continue;
    if (filter.text && !`${row.metadata.task} question ${index}`.toLowerCase().includes(filter.text.toLowerCase())) continue;
    matching.push(row);
  }
  const column = sort.column;
  matching.sort((a, b) => (sort.descending ? -1 : 1) * (a[column] - b[column] || a.index - b.index));
  return { total: matching.length, start, rows: matching.slice(start, start + count), version };
}

function groupDetail(made: FixtureGroup, hostile: boolean): GroupDetail {
  const { row, rewards } = made;
  const order = rewards.map((reward, position) => ({ reward, position })).sort((a, b) => b.reward - a.reward || a.position - b.position);
  const bestAnswer = answerText(row.index, order[0]!.position);
  const trajectories: TrajectoryView[] = order.map(({ reward, position }, rank) => {
    const advantage = reward - row.mean;
    const answer = answerText(row.index, position);
    const messages: MessageView[] = [
      {
        role: 'system',
        trained: false,
        content: 'You are a careful assistant. Think step by step, use the calculator tool when arithmetic is needed, and give the final answer on its own line.',
        omittedChars: 0,
        toolCalls: [],
      },
      { role: 'user', trained: false, content: hostile && row.index === 1 ? `Question ${row.index}: ${hostileText}` : `Question ${row.index}: what is 17 × 23 + 4?`, omittedChars: 0, toolCalls: [] },
      {
        role: 'assistant',
        trained: true,
        finishReason: 'tool_calls',
        content: 'Let me compute 17 × 23 first.',
        omittedChars: 0,
        toolCalls: [{ id: `call_${position}`, name: 'calculator', arguments: '{"expression": "17 * 23"}' }],
        logprobs: tokensOf('Let me compute 17 × 23 first.', position),
      },
      { role: 'tool', trained: false, content: '391', omittedChars: 0, toolCalls: [], toolCallId: `call_${position}` },
      {
        role: 'assistant',
        trained: true,
        finishReason: rank === order.length - 1 ? 'length' : 'stop',
        content: answer,
        omittedChars: 0,
        toolCalls: [],
        logprobs: tokensOf(answer, position + 1),
        ...(rank === 0 ? {} : { diff: wordDiff(answer, bestAnswer) }),
      },
    ];
    return {
      position,
      reward,
      advantage,
      normalizedAdvantage: row.std > 0 ? advantage / row.std : 0,
      metrics: { turns: String(2 + (position % 3)), tool_calls: String(1 + (position % 2)) },
      metadata: { sampler: `temperature ${(0.6 + position / 10).toFixed(1)}` },
      messages,
      omittedMessages: 0,
      tools: ['calculator', 'search'],
      additionalHistories: [],
      logs: [`step 120 rollout ${position} finished in ${(1.2 + position / 7).toFixed(2)} s`],
      truncated: rank === order.length - 1,
      repetition: rank === order.length - 1 ? 0.62 : 0.04,
      doesNothing: false,
    };
  });
  return {
    index: row.index,
    line: row.line,
    reward: { mean: row.mean, std: row.std, min: row.min, max: row.max },
    flags: row.flags,
    exceptions: row.exceptions ? ['ToolError: calculator timed out after 30 s', 'ValueError: could not parse the final answer'] : [],
    metadata: row.metadata,
    trajectories,
    omittedTrajectories: 0,
    problems: row.index % 13 === 2 ? ['trajectories[3].messages_and_choices[4]: a choice without logprobs'] : [],
  };
}

const answers = [
  '17 × 23 = 391, and 391 + 4 = 395.\nThe answer is 395.',
  '17 × 23 is 391. Adding 4 gives 395.\nThe answer is 395.',
  'The product is 381, plus 4 is 385.\nThe answer is 385.',
  'I think it is about 400.',
];

function answerText(index: number, position: number): string {
  return answers[(index + position) % answers.length]!;
}

function tokensOf(text: string, seed: number): { token: string; logprob: number }[] {
  return (text.match(/\S+|\s+/g) ?? []).map((token, at) => ({ token, logprob: Math.log(Math.max(0.01, noise(seed, at) ** 0.3)) }));
}

/** A word diff good enough for a fixture: common prefix and suffix same, the middle removed then added. */
function wordDiff(text: string, best: string): { kind: 'same' | 'added' | 'removed'; text: string }[] {
  const a = best.split(/(\s+)/);
  const b = text.split(/(\s+)/);
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (suffix < a.length - prefix && suffix < b.length - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++;
  const spans: { kind: 'same' | 'added' | 'removed'; text: string }[] = [];
  if (prefix) spans.push({ kind: 'same', text: a.slice(0, prefix).join('') });
  const removed = a.slice(prefix, a.length - suffix).join('');
  const added = b.slice(prefix, b.length - suffix).join('');
  if (removed) spans.push({ kind: 'removed', text: removed });
  if (added) spans.push({ kind: 'added', text: added });
  if (suffix) spans.push({ kind: 'same', text: a.slice(a.length - suffix).join('') });
  return spans;
}
