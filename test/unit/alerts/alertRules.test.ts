import * as assert from 'node:assert/strict';
import { AlertEngine, describeCondition, maxRules, parseAlertRules } from '../../../src/alerts/model/alertRules';

const file = (rules: unknown[]) => JSON.stringify({ rules });

describe('alert rules from a file a team commits', () => {
  it('reads every kind of condition and action', () => {
    const { rules, problems } = parseAlertRules(
      file([
        { name: 'Job failed', when: { job: 'failed' }, do: [{ notify: 'error' }, { webhook: 'Team alerts', payload: 'payloads/failed.payload.json' }] },
        { name: 'Reward collapsed', when: { metric: 'reward', below: 0.2, forSteps: 3 }, do: [{ command: 'rlStudio.openJobDetails' }] },
        { name: 'Canary', when: { canary: 'drop' }, do: [{ notify: 'warning' }] },
      ]),
    );
    assert.deepEqual(problems, []);
    assert.deepEqual(
      rules.map((rule) => [rule.name, describeCondition(rule.when), rule.actions.map((action) => action.kind).join('+')]),
      [
        ['Job failed', 'a job failed', 'notify+webhook'],
        ['Reward collapsed', 'reward below 0.2 for 3 steps', 'command'],
        ['Canary', 'the canary score dropped', 'notify'],
      ],
    );
  });

  it('says what is wrong, where, and keeps the rules that are right', () => {
    const { rules, problems } = parseAlertRules(
      file([
        { name: 'ok', when: { job: 'finished' }, do: [{ notify: 'info' }] },
        { name: 'bad outcome', when: { job: 'exploded' }, do: [{ notify: 'info' }] },
        { name: 'no bound', when: { metric: 'loss' }, do: [{ notify: 'info' }] },
        { name: 'steps', when: { metric: 'loss', above: 2, forSteps: 0 }, do: [{ notify: 'info' }] },
        { name: 'no action', when: { job: 'failed' }, do: [] },
        { name: 'shell', when: { job: 'failed' }, do: [{ command: 'rm -rf /' }] },
        { name: 'extra', when: { job: 'failed' }, do: [{ notify: 'info' }], priority: 1 },
      ]),
    );
    assert.deepEqual(
      rules.map((rule) => rule.name),
      ['ok', 'extra'],
    );
    assert.deepEqual(
      problems.map((problem) => `${problem.severity} ${problem.path}`),
      ['error rules[1].when.job', 'error rules[2].when', 'error rules[3].when.forSteps', 'error rules[4].do', 'error rules[5].do[0].command', 'warning rules[6].priority'],
    );
    assert.match(parseAlertRules('{"rules": [').problems[0]!.message, /^not valid JSON/);
    assert.equal(parseAlertRules(file(Array.from({ length: maxRules + 5 }, (_, index) => ({ name: `r${index}`, when: { job: 'failed' }, do: [{ notify: 'info' }] })))).rules.length, maxRules);
  });
});

describe('when alert rules fire', () => {
  const { rules } = parseAlertRules(
    file([
      { name: 'low reward', when: { metric: 'reward', below: 0.2, forSteps: 3 }, do: [{ notify: 'warning' }] },
      { name: 'failed', when: { job: 'failed' }, do: [{ notify: 'error' }] },
      { name: 'canary', when: { canary: 'drop' }, do: [{ notify: 'warning' }] },
    ]),
  );

  it('fires a metric rule after N steps in a row beyond its value, once per stretch', () => {
    const engine = new AlertEngine(rules);
    const fired = (step: number, value: number) => engine.metric('job-1', 'reward', step, value, {}).map((firing) => `${firing.rule.name}@${firing.context.step}`);
    assert.deepEqual([fired(1, 0.1), fired(2, 0.1)], [[], []]);
    assert.deepEqual(fired(3, 0.15), ['low reward@3']);
    assert.deepEqual(fired(4, 0.1), [], 'once per stretch');
    assert.deepEqual(fired(4, 0.1), [], 'a step seen again is ignored');
    assert.deepEqual([fired(5, 0.5), fired(6, 0.1), fired(7, 0.1)], [[], [], []]);
    assert.deepEqual(fired(8, 0.1), ['low reward@8'], 'again after coming back');
    assert.deepEqual(engine.metric('job-2', 'loss', 1, 0, {}), [], 'another metric');
  });

  it('fires a job outcome once per job, and a canary drop each time', () => {
    const engine = new AlertEngine(rules);
    assert.equal(engine.jobOutcome('failed', { jobId: 'j' }).length, 1);
    assert.equal(engine.jobOutcome('failed', { jobId: 'j' }).length, 0);
    assert.equal(engine.jobOutcome('finished', { jobId: 'j' }).length, 0, 'no rule for it');
    assert.equal(engine.canaryDrop({ modelId: 'm' }).length, 1);
    assert.equal(engine.canaryDrop({ modelId: 'm' }).length, 1);
  });
});
