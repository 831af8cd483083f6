import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseTrajectoryFile } from '../../../src/platform/kit/trajectoryFile';
import { validateTrajectoryGroup } from '../../../src/platform/kit/trajectoryShape';
import { buildGroupDetail } from '../../../src/rollouts/model/groupDetail';
import { summarizeGroup } from '../../../src/rollouts/model/groupSummary';
import { trajectoriesOf, type GroupSummary } from '../../../src/rollouts/model/groupSummaryShape';
import { inspectRollouts } from '../../../src/rollouts/model/rolloutReader';
import { describeRolloutsForAgent } from '../../../src/rollouts/model/rolloutReport';
import { chunksOf } from './rolloutFixtures';

/** Files in the official Python client's exact shapes (see test/fixtures/art/README.md). */
const fixture = (name: string) => readFileSync(join(__dirname, '../../../../test/fixtures/art', name), 'utf8');
const jsonl = fixture('trajectories.jsonl');
const json = fixture('trajectories.json');
const groups = JSON.parse(json) as Record<string, any>[];

/** A deep copy of a fixture group with one change. */
function changed(index: number, change: (group: any) => void): unknown {
  const copy = JSON.parse(JSON.stringify(groups[index]));
  change(copy);
  return copy;
}

describe("the official client's trajectory files", () => {
  it('hold every null the client writes (the fixtures are what they claim)', () => {
    const trajectory = groups[0]!.trajectories[0];
    assert.equal(trajectory.tools, null);
    assert.equal(trajectory.initial_policy_version, null);
    assert.equal(trajectory.final_policy_version, null);
    assert.equal(trajectory.metadata.source, null);
    assert.equal(trajectory.messages_and_choices[2].message.tool_calls, null);
    assert.equal(trajectory.messages_and_choices[2].message.refusal, null);
    assert.equal(groups[0]!.trajectories[0].metrics.correct, true);
    assert.equal(groups[1]!.trajectories[0].additional_histories[0].tools, null);
    assert.equal(groups[2]!.trajectories[1].messages_and_choices[2].logprobs, null);
  });

  it('make a rate only of a metric whose every value is a boolean', async () => {
    const mixed = changed(0, (group) => {
      group.trajectories[1].metrics.correct = 1;
    });
    const statistics = (await inspectRollouts(chunksOf(`${JSON.stringify(mixed)}\n${jsonl}`, 97), 'jsonl')).snapshot().statistics;
    assert.equal(statistics.metrics.correct!.rate, undefined, 'a 1 among the booleans makes it a number');
    assert.equal(statistics.metrics.correct!.mean, 5 / 8);
  });

  it('pass the shape check with no problem, not even a warning', () => {
    groups.forEach((group, index) => assert.deepEqual(validateTrajectoryGroup(group), [], `group ${index}`));
    for (const [text, format] of [
      [jsonl, 'jsonl'],
      [json, 'json'],
    ] as const) {
      const parsed = parseTrajectoryFile(text, format);
      assert.deepEqual(parsed.problems, [], format);
      assert.equal(parsed.ok, true);
      assert.equal(parsed.groups.length, 3);
    }
  });

  it('are read by the rollout reader with no problem, booleans counted as 1 and 0', async () => {
    for (const [text, format] of [
      [jsonl, 'jsonl'],
      [json, 'json'],
    ] as const) {
      const collection = await inspectRollouts(chunksOf(text, 97), format);
      const snapshot = collection.snapshot();
      assert.deepEqual(snapshot.problems, [], format);
      assert.equal(snapshot.statistics.groups, 3);
      assert.equal(snapshot.statistics.exceptions, 1);
      // `correct` is true in 3 of the 6 trajectories: its mean is the rate.
      assert.equal(snapshot.statistics.metrics.correct!.mean, 3 / 6);
      assert.equal(snapshot.statistics.metrics.correct!.rate, true, 'a metric of booleans is a rate');
      assert.equal(snapshot.statistics.metrics.duration!.rate, undefined, 'a metric of numbers is not');
      assert.match(describeRolloutsForAgent('trajectories.jsonl', snapshot), /correct\S* true in 50%/);
      const summaries = collection.groups;
      assert.deepEqual(
        trajectoriesOf(summaries[0]!).map((item) => item.metrics.correct),
        [1, 0],
      );
      assert.deepEqual(
        trajectoriesOf(summaries[1]!).map((item) => item.choices),
        [3, 3],
      );
    }
  });

  it('show their logprobs, tool calls, list-of-parts content and additional histories in the group view', () => {
    const first = buildGroupDetail(groups[0], summaryFor(groups[0]), []);
    const best = first.trajectories[0]!;
    assert.equal(best.messages[1]!.content, 'Ann has 40 apples and buys 2 more. How many?');
    assert.deepEqual(
      best.messages[2]!.logprobs?.map((token) => token.token),
      ['4', '2'],
    );
    assert.deepEqual(best.tools, []);
    const second = buildGroupDetail(groups[1], summaryFor(groups[1]), []);
    const withTools = second.trajectories[0]!;
    assert.deepEqual(withTools.tools, ['get_weather']);
    assert.equal(withTools.messages[2]!.toolCalls[0]!.name, 'get_weather');
    assert.equal(withTools.additionalHistories.length, 2);
    const third = buildGroupDetail(groups[2], summaryFor(groups[2]), []);
    assert.match(third.exceptions[0]!, /TimeoutError/);
  });

  it('still have refused what the service refuses', () => {
    const errors = (value: unknown) =>
      validateTrajectoryGroup(value)
        .filter((issue) => issue.severity === 'error')
        .map((issue) => issue.path.join('.'));
    assert.deepEqual(
      errors(
        changed(0, (group) => {
          group.trajectories[0].reward = null;
        }),
      ),
      ['trajectories.0.reward'],
    );
    assert.deepEqual(
      errors(
        changed(0, (group) => {
          group.trajectories[0].tools = 'none';
        }),
      ),
      ['trajectories.0.tools'],
    );
    assert.deepEqual(
      errors(
        changed(1, (group) => {
          group.trajectories[0].messages_and_choices[2].message.tool_calls = {};
        }),
      ),
      ['trajectories.0.messages_and_choices.2.message.tool_calls'],
    );
    assert.deepEqual(
      errors(
        changed(0, (group) => {
          group.trajectories[0].metrics.correct = null;
        }),
      ),
      ['trajectories.0.metrics.correct'],
    );
    assert.deepEqual(
      errors(
        changed(1, (group) => {
          group.trajectories[0].additional_histories[0].tools = {};
          group.trajectories[1].additional_histories[1].messages_and_choices[1].message.role = 'user';
          group.trajectories[1].additional_histories.push({ tools: null });
        }),
      ),
      ['trajectories.0.additional_histories.0.tools', 'trajectories.1.additional_histories.1.messages_and_choices.1.message.role', 'trajectories.1.additional_histories.2'],
    );
    // The inspector's quick walk sends such a group to the full check rather than passing it.
    const badHistory = changed(1, (group) => {
      group.trajectories[0].additional_histories[0].messages_and_choices[1].finish_reason = 7;
    });
    assert.equal(summarizeGroup(badHistory, { index: 0, line: 0, offset: 0, bytes: 0 }).wellFormed, false);
    assert.deepEqual(errors(badHistory), ['trajectories.0.additional_histories.0.messages_and_choices.1.finish_reason']);
  });
});

/** The summary the reader makes of one group, for the group view. */
function summaryFor(group: unknown): GroupSummary {
  const result = summarizeGroup(group, { index: 0, line: 0, offset: 0, bytes: 0 });
  assert.equal(result.wellFormed, true, 'the summary walk finds the group well formed, so no second check runs');
  return result.summary!;
}
