/**
 * Reading a rollout file for the inspector: every group's summary and flags and the file's
 * statistics, for a 200 MB .jsonl of 100,000 trajectories (12,500 groups of 8, in the official
 * client's shapes, nulls and all), against the floor
 * any reader pays: the same chunks, split into the same lines, each given to JSON.parse and dropped.
 * The file is generated once into the temp folder and kept for later runs.
 *
 * Both sides run as the extension ships them, bundled (shippedModules.ts).
 *
 * Memory is measured in a separate, untimed run: the growth of heap plus array buffers (what an
 * extension host would hold) from a collected baseline to the highest sample, against twice the
 * file's size (what reading the text whole and parsing it would take at the least); then what is
 * left of it once the inspection is dropped and collected, as when the editor is closed.
 */
import { createReadStream, existsSync, mkdirSync, openSync, renameSync, statSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { alternateRounds } from '../alternating';
import type * as RolloutReader from '../../../src/rollouts/model/rolloutReader';
import type * as SourceLines from '../../../src/platform/kit/sourceLines';
import type { BenchFigure, BenchSuite } from '../report';
import { loadAsShipped } from '../shippedModules';
import { randomFrom, sentence } from '../generatedText';
import { collector, held, settled } from '../heldMemory';
import { median } from '../stats';

const groupCount = 12_500;
const groupSize = 8;
/** Bump when the generated content changes, so a kept file of the old shape is not reused. */
const fileVersion = 4;
const rounds = 5;
const MB = 1e6;

/**
 * A group as the official client's `model_dump(mode="json")` writes it: every optional field
 * present, the unset ones `null` (tools, tool calls, logprobs, policy versions, a choice's refusal
 * and the like), so the reading pays for the null-tolerant shape checks it must do on real files.
 */
function generatedGroup(random: () => number, index: number): string {
  const trajectories = [];
  for (let position = 0; position < groupSize; position++) {
    const kind = random();
    // Mostly ordinary answers; some cut at the length limit, some looping, some empty.
    const content = kind < 0.03 ? '' : kind < 0.08 ? 'Let me check that again. '.repeat(60) : Array.from({ length: 12 }, () => sentence(random, 20)).join(' ');
    trajectories.push({
      messages_and_choices: [
        { role: 'system', content: 'You are a careful assistant that solves arithmetic word problems step by step.' },
        { role: 'user', content: `Problem ${index}-${position}: ${sentence(random, 30)}` },
        {
          finish_reason: kind < 0.12 && kind >= 0.08 ? 'length' : 'stop',
          index: 0,
          logprobs: null,
          message: { content, refusal: null, role: 'assistant', annotations: null, audio: null, function_call: null, tool_calls: null },
        },
      ],
      tools: null,
      additional_histories: [],
      reward: index % 10 === 0 ? 1 : Math.round(random() * 100) / 100,
      initial_policy_version: null,
      final_policy_version: null,
      metrics: { correct: random() < 0.5, steps: Math.floor(random() * 12), tokens: Math.floor(random() * 900) },
      metadata: { problem: `${index}-${position}`, source: null },
      logs: [],
    });
  }
  const exceptions = index % 97 === 0 ? [{ type: 'TimeoutError', message: 'the environment did not answer in 30 s', traceback: null }] : [];
  return JSON.stringify({ trajectories, exceptions, metadata: { step: Math.floor(index / 100), scenario: `s${index}` }, metrics: {}, logs: [] });
}

/** The generated file, made once and kept in the temp folder (written aside, then renamed). */
export function rolloutFile(): string {
  const directory = join(tmpdir(), 'rl-studio-bench');
  const path = join(directory, `rollouts-v${fileVersion}-${groupCount}x${groupSize}.jsonl`);
  if (existsSync(path)) return path;
  mkdirSync(directory, { recursive: true });
  const partial = `${path}.${process.pid}.partial`;
  const descriptor = openSync(partial, 'w');
  try {
    const random = randomFrom(7);
    let batch: string[] = [];
    for (let index = 0; index < groupCount; index++) {
      batch.push(generatedGroup(random, index));
      if (batch.length === 250 || index === groupCount - 1) {
        writeSync(descriptor, `${batch.join('\n')}\n`);
        batch = [];
      }
    }
  } finally {
    closeSync(descriptor);
  }
  renameSync(partial, path);
  return path;
}

/** The reader and the line splitter as the extension ships them (bundled), loaded when the suite runs. */
let shipped: Pick<typeof RolloutReader, 'inspectRollouts'> & Pick<typeof SourceLines, 'sourceLines'>;

function chunksOf(path: string): AsyncIterable<Uint8Array> {
  return createReadStream(path, { highWaterMark: 64 * 1024 });
}

async function inspect(path: string): Promise<void> {
  const { statistics, problems } = (await shipped.inspectRollouts(chunksOf(path), 'jsonl')).snapshot();
  if (statistics.trajectories !== groupCount * groupSize || problems.length > 0) throw new Error(`read ${statistics.trajectories} trajectories and ${problems.length} problems`);
}

async function parseOnly(path: string): Promise<void> {
  let parsed = 0;
  for await (const line of shipped.sourceLines(chunksOf(path))) {
    if (line.kind === 'line' && line.text.trim() !== '' && JSON.parse(line.text) !== undefined) parsed++;
  }
  if (parsed !== groupCount) throw new Error(`parsed ${parsed} lines`);
}

/**
 * The highest growth of heap plus array buffers while the file is inspected, sampled per chunk, and
 * what is left of it once the inspection is dropped and collected (what closing the editor gives back).
 */
async function memoryGrowth(path: string): Promise<{ peak: number; afterClose: number }> {
  const collect = collector();
  await settled(collect);
  const baseline = held();
  let peak = baseline;
  let chunks = 0;
  async function* sampled(): AsyncGenerator<Uint8Array> {
    for await (const chunk of chunksOf(path)) {
      if (++chunks % 16 === 0) peak = Math.max(peak, held());
      yield chunk as Uint8Array;
    }
  }
  // The inspection lives only in this call, as in an editor that is closed afterwards.
  const inspectAndDrop = async (): Promise<void> => {
    const inspection = await shipped.inspectRollouts(sampled(), 'jsonl');
    peak = Math.max(peak, held());
    if (inspection.groups.length !== groupCount) throw new Error('groups missing');
  };
  await inspectAndDrop();
  await settled(collect);
  return { peak: peak - baseline, afterClose: held() - baseline };
}

export const suite: BenchSuite = {
  name: 'Rollouts: inspector reading',
  async run(): Promise<BenchFigure[]> {
    shipped = await loadAsShipped({ 'src/rollouts/model/rolloutReader.ts': ['inspectRollouts'], 'src/platform/kit/sourceLines.ts': ['sourceLines'] });
    const generationStarted = performance.now();
    const path = rolloutFile();
    const generation = performance.now() - generationStarted;
    const size = statSync(path).size;
    // One untimed call of each (which also checks the counts), then rounds of ours/theirs alternating in order.
    await inspect(path);
    await parseOnly(path);
    const { ours, peer: floor } = await alternateRounds(
      rounds,
      () => inspect(path),
      () => parseOnly(path),
    );
    const growth = await memoryGrowth(path);
    const file = `${(size / MB).toFixed(0)} MB, ${groupCount} groups of ${groupSize}, 64 KiB reads`;
    return [
      {
        name: 'Rollout file: all summaries, flags and statistics',
        value: median(ours),
        unit: 'ms',
        peer: { name: 'bare line-by-line JSON.parse of the same chunks', value: median(floor) },
        better: 'lower',
        goal: { kind: 'ratio', atMost: 1.1 },
        note: `${file}, median of ${rounds} alternating runs; file ${generation > 1000 ? `generated in ${(generation / 1000).toFixed(1)} s` : 'kept from an earlier run'}`,
      },
      {
        name: 'Rollout file: peak heap + array buffers growth while inspecting',
        value: growth.peak / MB,
        unit: 'MB',
        peer: { name: 'twice the file size', value: (2 * size) / MB },
        better: 'lower',
        goal: { kind: 'ratio', atMost: 1 },
        note: 'sampled every 16 reads, from a collected baseline; summaries of every group are kept',
      },
      {
        name: 'Rollout file: heap + array buffers left after the inspection is dropped and collected',
        value: growth.afterClose / MB,
        unit: 'MB',
        peer: { name: 'the peak growth while inspecting', value: growth.peak / MB },
        better: 'lower',
        // What stays is compiled code and the like, not the file's: a few MB at most.
        goal: { kind: 'absolute', atMost: 2 },
        note: 'against the same collected baseline as the peak (it can come out just below it); closing the file must give its memory back',
      },
    ];
  },
};
