/**
 * Hostile rollout files against the real inspector core (InspectedFile reading real files from
 * disk, as the editor does): a single line far larger than any group, far more groups than are
 * listed, a group built to make its detail huge, and a file rewritten under a reader. Each must end
 * in a bounded state a person can read, never an exception, with the heap and the event loop within
 * their bounds.
 */
import { strict as assert } from 'node:assert';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileSource } from '../../src/rollouts/model/fileSource';
import { InspectedFile } from '../../src/rollouts/model/inspectedFile';
import { defaultQuery } from '../../src/rollouts/model/inspectorModel';
import { defaultMaxGroups } from '../../src/rollouts/model/rolloutCollection';
import { defaultMaxLineBytes } from '../../src/platform/kit/sourceLines';
import { measure } from './support/measure';

const MiB = 2 ** 20;

function group(index: number, answer = 'The answer is 42.'): string {
  return JSON.stringify({
    trajectories: [
      {
        messages_and_choices: [
          { role: 'user', content: `q${index}` },
          { index: 0, finish_reason: 'stop', message: { role: 'assistant', content: answer } },
        ],
        reward: index % 2,
      },
      {
        messages_and_choices: [
          { role: 'user', content: `q${index}` },
          { index: 0, finish_reason: 'length', message: { role: 'assistant', content: '' } },
        ],
        reward: 0.5,
      },
    ],
    metadata: { index, run: `run-${index % 7}` },
  });
}

describe('rollout inspector against hostile files', function () {
  this.timeout(60_000);
  let folder: string;
  before(() => {
    folder = mkdtempSync(join(tmpdir(), 'rl-studio-hostile-rollouts-'));
  });
  after(() => rmSync(folder, { recursive: true, force: true }));

  function inspected(name: string): InspectedFile {
    return new InspectedFile({ fileName: name, format: 'jsonl', source: fileSource(join(folder, name)) });
  }

  it('a line larger than any group (80 MiB): skipped as a problem with its size, the groups around it read, the heap never holding it', async () => {
    const path = join(folder, 'huge-line.jsonl');
    const descriptor = openSync(path, 'w');
    writeSync(descriptor, `${group(0)}\n{"trajectories": [{"reward": 1, "messages_and_choices": [{"role": "user", "content": "`);
    const block = Buffer.alloc(MiB, 'a');
    for (let written = 0; written < 80 * MiB; written += block.length) writeSync(descriptor, block);
    writeSync(descriptor, `"}]}]}\n${group(2)}\n`);
    closeSync(descriptor);
    const file = inspected('huge-line.jsonl');
    const { measurement } = await measure(() => file.open());
    const state = file.state();
    assert.equal(state.statistics.groups, 2);
    assert.equal(state.problems.length, 1);
    assert.equal(state.problems[0]!.line, 1);
    assert.match(state.problems[0]!.message, /bytes/);
    assert.ok(80 * MiB > defaultMaxLineBytes);
    assert.ok(measurement.peakHeapGrowthMiB < 40, `heap grew ${measurement.peakHeapGrowthMiB.toFixed(1)} MiB`);
    assert.ok(measurement.maxEventLoopDelayMs < 1_000, `the event loop stalled ${measurement.maxEventLoopDelayMs.toFixed(0)} ms`);
  });

  it(`${(defaultMaxGroups * 2.5).toLocaleString('en-US')} groups: the first ${defaultMaxGroups.toLocaleString('en-US')} listed, every one counted, pages and metadata choices bounded`, async () => {
    const total = defaultMaxGroups * 2.5;
    const lines: string[] = [];
    for (let index = 0; index < total; index++) lines.push(group(index, 'ok'));
    writeFileSync(join(folder, 'many.jsonl'), `${lines.join('\n')}\n`);
    lines.length = 0;
    const file = inspected('many.jsonl');
    const { measurement } = await measure(() => file.open());
    const state = file.state();
    assert.equal(state.statistics.groups, total);
    assert.equal(file.groups.length, defaultMaxGroups);
    assert.equal(state.groupsNotKept, total - defaultMaxGroups);
    assert.ok(state.metadata.every((choice) => choice.values.length <= 20));
    const page = await file.rows(defaultQuery, 0, 1_000_000);
    assert.ok(page.rows.length <= 500, `a page of ${page.rows.length} rows`);
    assert.ok(measurement.maxEventLoopDelayMs < 1_000, `the event loop stalled ${measurement.maxEventLoopDelayMs.toFixed(0)} ms`);
  });

  it('a group built to make its detail huge (64 siblings of 900 KB answers, under the line cap): a detail of bounded size', async () => {
    const answer = 'x'.repeat(900 * 1024);
    const trajectories = Array.from({ length: 64 }, (_, position) => ({
      messages_and_choices: [
        { role: 'user', content: 'q' },
        { index: 0, finish_reason: 'stop', message: { role: 'assistant', content: answer + position } },
      ],
      reward: position / 64,
    }));
    writeFileSync(join(folder, 'wide.jsonl'), `${JSON.stringify({ trajectories })}\n`);
    const file = inspected('wide.jsonl');
    await file.open();
    const detail = await file.group(0);
    assert.ok(detail);
    assert.equal(detail.trajectories.length, 64);
    assert.ok(JSON.stringify(detail).length < 12_000_000, `a detail of ${JSON.stringify(detail).length} characters`);
  });

  it('a file rewritten under the reader: the group asked for is refused, not misread, and the file is read again', async () => {
    const path = join(folder, 'rewritten.jsonl');
    writeFileSync(path, `${group(0)}\n${group(1)}\n`);
    const file = inspected('rewritten.jsonl');
    await file.open();
    writeFileSync(path, `${group(0, 'a different answer that moves every byte after it')}\n`);
    assert.equal(await file.group(1), null);
    await file.settled();
    assert.equal(file.state().statistics.groups, 1);
  });
});
