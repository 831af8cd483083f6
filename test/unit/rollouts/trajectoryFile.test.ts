import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkTrajectoryFile, formatForFileName, parseTrajectoryFile, tooLargeToRead } from '../../../src/platform/kit/trajectoryFile';
import { validateTrajectoryGroup } from '../../../src/platform/kit/trajectoryShape';

const group = (reward: unknown = 1, extra: Record<string, unknown> = {}) => ({
  trajectories: [
    {
      messages_and_choices: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'Say hi' },
        { index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'hi' } },
      ],
      reward,
    },
  ],
  ...extra,
});

describe('trajectory-group shape', () => {
  it('accepts a valid group with open metadata, metrics and unknown keys', () => {
    const valid = group(0.5, { metadata: { anything: { nested: true } }, metrics: { acc: 0.9, passed: true }, logs: ['a'], something_new: 1 });
    assert.deepEqual(validateTrajectoryGroup(valid), []);
  });

  it('accepts assistant tool calls with null content and a choice without index', () => {
    const value = {
      trajectories: [
        {
          messages_and_choices: [
            { role: 'user', content: 'weather?' },
            { finish_reason: 'tool_calls', message: { role: 'assistant', content: null, tool_calls: [{ id: 'x' }] } },
            { role: 'tool', content: '{"temp": 3}', tool_call_id: 'x' },
            { finish_reason: 'stop', message: { role: 'assistant', content: 'cold' } },
          ],
          reward: -1,
          tools: [],
        },
      ],
    };
    assert.deepEqual(validateTrajectoryGroup(value), []);
  });

  it('names each problem with its path', () => {
    const issues = validateTrajectoryGroup({
      trajectories: [{ messages_and_choices: [{ content: 'x' }, { finish_reason: 1, message: { role: 'user', content: 3 } }], reward: '1' }],
      metrics: { a: 'x' },
    });
    const byPath = issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    assert.deepEqual(byPath, [
      'trajectories.0.messages_and_choices.0: expected a chat message {"role", "content"} or a choice {"finish_reason", "message"}: this object has neither "role" nor "finish_reason"',
      'trajectories.0.messages_and_choices.1.finish_reason: "finish_reason" must be a string, not the number 1',
      'trajectories.0.messages_and_choices.1.message.role: a choice\'s message must have role "assistant", not the string "user"',
      'trajectories.0.messages_and_choices.1.message.content: "content" must be a string, not the number 3',
      'trajectories.0.reward: "reward" must be a number, not the string "1"',
      'metrics.a: metric "a" must be a number or a boolean, not the string "x"',
    ]);
  });

  it('reports missing keys and warns about a trajectory with nothing to train on', () => {
    const issues = validateTrajectoryGroup({ trajectories: [{ messages_and_choices: [{ role: 'user', content: 'hi' }] }] });
    assert.deepEqual(
      issues.map((issue) => [issue.severity, issue.missingKey ?? issue.path.join('.')]),
      [
        ['warning', 'trajectories.0.messages_and_choices'],
        ['error', 'reward'],
      ],
    );
    assert.equal(validateTrajectoryGroup([]).length, 1);
    assert.equal(validateTrajectoryGroup({ trajectories: [] })[0]!.message, '"trajectories" is empty: a group needs at least one trajectory');
  });
});

describe('trajectory files', () => {
  it('picks the format from the file name', () => {
    assert.equal(formatForFileName('/a/b/groups.JSONL'), 'jsonl');
    assert.equal(formatForFileName('/a/b/groups.json'), 'json');
  });

  it('reads one group per line of a .jsonl file, skipping blank lines and CRLF endings', () => {
    const text = [JSON.stringify(group(1)), '', JSON.stringify(group(0))].join('\r\n') + '\r\n';
    const parsed = parseTrajectoryFile(text, 'jsonl');
    assert.equal(parsed.ok, true);
    assert.equal(parsed.groups.length, 2);
    assert.deepEqual(parsed.problems, []);
  });

  it('puts a syntax error on its line and column', () => {
    const text = `${JSON.stringify(group())}\n{"trajectories": [}\n${JSON.stringify(group())}`;
    const parsed = parseTrajectoryFile(text, 'jsonl');
    assert.equal(parsed.ok, false);
    assert.equal(parsed.problems.length, 1);
    const [problem] = parsed.problems;
    assert.equal(problem!.line, 1);
    assert.equal(problem!.column, 18);
    assert.match(problem!.message, /not valid JSON \(value expected\)/);
    assert.equal(parsed.groups.length, 2, 'the valid lines still parse');
  });

  it('underlines the offending value of a shape error on its line', () => {
    const bad = JSON.stringify(group('high'));
    const text = `${JSON.stringify(group())}\n${bad}`;
    const parsed = parseTrajectoryFile(text, 'jsonl');
    const [problem] = parsed.problems;
    assert.equal(problem!.line, 1);
    assert.equal(bad.slice(problem!.column, problem!.endColumn), '"high"');
    assert.match(problem!.message, /"reward" must be a number/);
  });

  it('rejects comments and trailing commas, which the platform will not parse', () => {
    assert.equal(parseTrajectoryFile('// note\n' + JSON.stringify(group()), 'jsonl').ok, false);
    assert.equal(parseTrajectoryFile('[' + JSON.stringify(group()) + ',]', 'json').ok, false);
  });

  it('reads a .json array and places problems inside pretty-printed groups', () => {
    const text = JSON.stringify(
      [
        group(),
        {
          trajectories: [
            {
              messages_and_choices: [
                { role: 'user', content: 'x' },
                { finish_reason: 'stop', message: { role: 'assistant', content: 'y' } },
              ],
            },
          ],
        },
      ],
      null,
      2,
    );
    const parsed = parseTrajectoryFile(text, 'json');
    assert.equal(parsed.groups.length, 1);
    assert.equal(parsed.problems.length, 1);
    const [problem] = parsed.problems;
    const lines = text.split('\n');
    // The trajectory missing its reward is underlined on the line where that object starts.
    assert.equal(lines[problem!.line]!.slice(problem!.column), '{');
    assert.equal(problem!.endLine, problem!.line);
    assert.match(problem!.message, /missing "reward"/);
  });

  it('says when a .json file is not an array, or a file holds no group', () => {
    assert.match(parseTrajectoryFile(JSON.stringify(group()), 'json').problems[0]!.message, /must be an array/);
    assert.match(parseTrajectoryFile('\n\n', 'jsonl').problems[0]!.message, /no trajectory groups/);
    assert.match(parseTrajectoryFile('[]', 'json').problems[0]!.message, /no trajectory groups/);
  });

  it('handles a large file quickly', () => {
    const line = JSON.stringify(group());
    const text = Array.from({ length: 5000 }, () => line).join('\n');
    const started = Date.now();
    const parsed = parseTrajectoryFile(text, 'jsonl');
    assert.equal(parsed.groups.length, 5000);
    assert.ok(Date.now() - started < 3000);
  });
});

describe('trajectory file limits', () => {
  const line = JSON.stringify(group());

  it('refuses a line nested too deep, on that line, and still reads the others', () => {
    const deep = `{"trajectories": ${'['.repeat(600)}${']'.repeat(600)}}`;
    const parsed = parseTrajectoryFile(`${line}\n${deep}\n${line}`, 'jsonl');
    assert.equal(parsed.ok, false);
    assert.equal(parsed.groups.length, 2);
    assert.equal(parsed.problems.length, 1);
    assert.deepEqual([parsed.problems[0]!.line, parsed.problems[0]!.column], [1, 17 + 511]);
    assert.match(parsed.problems[0]!.message, /^nested deeper than 512 levels; not checked further/);
  });

  it('checks the part of a too-large .jsonl file that fits, says where it stopped, and keeps nothing to send', () => {
    const text = Array.from({ length: 10 }, () => line).join('\n');
    const limits = { maxSize: line.length * 4 + 10, maxProblems: 200 };
    const parsed = parseTrajectoryFile(text.replace(/"reward":1/, '"reward":"x"'), 'jsonl', limits);
    assert.equal(parsed.ok, false);
    assert.deepEqual(parsed.groups, []);
    assert.deepEqual(
      parsed.problems.map((problem) => problem.line),
      [0, 4],
    );
    assert.match(parsed.problems[0]!.message, /"reward" must be a number/);
    assert.match(parsed.problems[1]!.message, /larger than 0\.\d MB.*lines 5 onward were not checked and nothing will be sent/);
  });

  it('does not check a too-large .json file at all', () => {
    const parsed = parseTrajectoryFile(JSON.stringify([group(), group()]), 'json', { maxSize: 10, maxProblems: 200 });
    assert.equal(parsed.ok, false);
    assert.equal(parsed.problems.length, 1);
    assert.match(parsed.problems[0]!.message, /it was not checked and nothing will be sent/);
  });

  it('says a file over the size RL Studio sends is not read', () => {
    const refused = tooLargeToRead(60 * 1024 * 1024);
    assert.equal(refused.ok, false);
    assert.equal(refused.problems[0]!.message, 'this file is 60 MB, larger than the 16 MB RL Studio sends in one request: it was not read and nothing will be sent; split it into smaller files');
  });

  it('lists the first problems and counts the rest in one, an error when any of them is', () => {
    const bad = JSON.stringify(group('x'));
    const text = [line, ...Array.from({ length: 7 }, () => bad)].join('\n');
    const parsed = parseTrajectoryFile(text, 'jsonl', { maxSize: 1e6, maxProblems: 3 });
    assert.deepEqual(
      parsed.problems.map((problem) => [problem.line, problem.severity]),
      [
        [1, 'error'],
        [2, 'error'],
        [3, 'error'],
        [4, 'error'],
      ],
    );
    assert.equal(parsed.problems[3]!.message, '4 more problems not listed, from here on: fix the ones above first');
    assert.equal(parsed.problems[3]!.notListed, 4, 'the closing entry says how many it stands for');
    assert.equal(parsed.groups.length, 1);

    const warned = JSON.stringify({ trajectories: [{ messages_and_choices: [{ role: 'user', content: 'x' }], reward: 1 }] });
    const onlyWarnings = parseTrajectoryFile([warned, warned, warned].join('\n'), 'jsonl', { maxSize: 1e6, maxProblems: 1 });
    assert.equal(onlyWarnings.ok, true, 'unlisted warnings do not stop a send');
    assert.equal(onlyWarnings.groups.length, 3);
    assert.equal(onlyWarnings.problems[1]!.severity, 'warning');
  });

  it('lists at most 100 issues of one group', () => {
    const metrics = Object.fromEntries(Array.from({ length: 150 }, (_, index) => [`m${index}`, 'x']));
    const issues = validateTrajectoryGroup(group(1, { metrics }));
    assert.equal(issues.length, 101);
    assert.deepEqual([issues[100]!.severity, issues[100]!.message], ['error', '50 more problems in this group not listed: fix the ones above first']);
  });

  it('checks in slices to the same result as in one go', async () => {
    const text = [line, JSON.stringify(group('x')), '{"broken', line].join('\n');
    assert.deepEqual(await checkTrajectoryFile(text, 'jsonl', { sliceMs: 0 }), parseTrajectoryFile(text, 'jsonl'));
    const array = JSON.stringify([group(), group(2), { trajectories: 1 }], null, 2);
    assert.deepEqual(await checkTrajectoryFile(array, 'json', { sliceMs: 0 }), parseTrajectoryFile(array, 'json'));
  });
});

describe('trajectory fixture files', () => {
  const fixture = (name: string) => readFileSync(join(__dirname, '../../../../test/fixtures/jobs', name), 'utf8');

  it('accepts the valid fixtures', () => {
    assert.equal(parseTrajectoryFile(fixture('groups.jsonl'), 'jsonl').groups.length, 4);
    assert.equal(parseTrajectoryFile(fixture('groups.json'), 'json').groups.length, 3);
    assert.equal(parseTrajectoryFile(fixture('failing.jsonl'), 'jsonl').ok, true);
  });

  it('finds each problem of the invalid fixture on its line', () => {
    const parsed = parseTrajectoryFile(fixture('invalid.jsonl'), 'jsonl');
    assert.equal(parsed.ok, false);
    assert.deepEqual(
      parsed.problems.map((problem) => [problem.line, problem.severity]),
      [
        [1, 'error'],
        [2, 'error'],
        [3, 'error'],
      ],
    );
    assert.match(parsed.problems[0]!.message, /"reward" must be a number/);
    assert.match(parsed.problems[1]!.message, /not valid JSON/);
    assert.match(parsed.problems[2]!.message, /missing "reward"/);
    assert.equal(parsed.groups.length, 1);
  });
});
