import * as assert from 'node:assert/strict';
import { validateTrajectoryGroup } from '../../../src/platform/kit/trajectoryShape';
import { summarizeGroup } from '../../../src/rollouts/model/groupSummary';
import { choice, group, trajectory } from './rolloutFixtures';

/**
 * The summary's walk says a group is well-formed only when the full shape check finds nothing, so
 * the reader runs that check only for groups the walk did not pass. Checked here against the full
 * check on every value of a group as ART writes it, each replaced by values of every JSON kind, or
 * removed.
 */
const base = group(
  [
    {
      ...trajectory(1),
      messages_and_choices: [
        { role: 'system', content: 'You answer questions about the weather.' },
        { role: 'user', content: 'Is it raining in Paris?' },
        choice(null, 'tool_calls', [{ id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } }]),
        { role: 'tool', tool_call_id: 'call_1', content: '{"rain":true}' },
        { role: 'assistant', content: null, tool_calls: [] },
        choice('Yes, it is raining in Paris.'),
      ],
      tools: [{ type: 'function', function: { name: 'weather', parameters: { type: 'object' } } }],
      logs: ['started', 'done'],
    },
    trajectory(0, choice('I cannot know that.')),
  ],
  { exceptions: [{ type: 'TimeoutError', message: 'late' }], metrics: { score: 1, passed: true }, logs: ['group log'] },
);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
const replacements: (Json | undefined)[] = [undefined, null, true, 0, 1.5, 'stop', 'assistant', '', [], ['text'], {}];

/** Every path to a value of `value` (objects' keys and arrays' indices). */
function pathsOf(value: Json, path: (string | number)[] = []): (string | number)[][] {
  if (value === null || typeof value !== 'object') return [];
  const keys: (string | number)[] = Array.isArray(value) ? value.map((_, index) => index) : Object.keys(value);
  return keys.flatMap((key) => [[...path, key], ...pathsOf((value as Record<string | number, Json>)[key]!, [...path, key])]);
}

function replaced(value: Json, path: (string | number)[], replacement: Json | undefined): Json {
  const copy = JSON.parse(JSON.stringify(value)) as Json;
  let owner = copy as Record<string | number, Json>;
  for (const key of path.slice(0, -1)) owner = owner[key] as Record<string | number, Json>;
  const last = path.at(-1)!;
  if (replacement !== undefined) owner[last] = replacement;
  else if (Array.isArray(owner)) owner.splice(last as number, 1);
  else delete owner[last];
  // As read from a file: what JSON keeps.
  return JSON.parse(JSON.stringify(copy)) as Json;
}

describe('rollout shape: the walk that finds a group well-formed', () => {
  it('passes the ART-shaped group, which the full check passes', () => {
    assert.deepEqual(validateTrajectoryGroup(base), []);
    assert.equal(summarizeGroup(base, { index: 0, line: 0, offset: 0, bytes: 0 }).wellFormed, true);
  });

  it('agrees with the full shape check on every value replaced by any JSON kind or removed', () => {
    let cases = 0;
    let withIssues = 0;
    for (const path of pathsOf(base as Json)) {
      for (const replacement of replacements) {
        const value = replaced(base as Json, path, replacement);
        const issues = validateTrajectoryGroup(value);
        const { wellFormed } = summarizeGroup(value, { index: 0, line: 0, offset: 0, bytes: 0 });
        assert.equal(wellFormed, issues.length === 0, `${JSON.stringify(path)} = ${JSON.stringify(replacement)}: ${issues.map((issue) => issue.message).join('; ')}`);
        cases++;
        if (issues.length > 0) withIssues++;
      }
    }
    // The replacements reach both answers many times.
    assert.ok(cases > 500 && withIssues > 100 && cases - withIssues > 100, `${cases} cases, ${withIssues} with issues`);
  });
});
