import * as assert from 'node:assert/strict';
import { AlertEngine, maxRules, parseAlertRules, type AlertFiring } from '../../src/alerts/model/alertRules';
import { alertVariableValues } from '../../src/alerts/model/alertVariables';
import { FiringBudget } from '../../src/alerts/model/firingBudget';
import { locateProblems } from '../../src/platform/kit/jsonProblemLocations';
import { analysePayload, renderPayload } from '../../src/webhooks/model/payload';

describe('hostile alert rules files and firings', () => {
  it('a rules file nested 100,000 deep is one problem, not a crash', () => {
    const text = '{"rules": ' + '['.repeat(100_000) + ']'.repeat(100_000) + '}';
    const { rules, problems } = parseAlertRules(text);
    assert.deepEqual(rules, []);
    assert.equal(problems.length, 1);
    assert.equal(locateProblems(text, [problems[0]!.path]).length, 1);
  });

  it('a file of 50,000 rules reads the first 100 and locates its problems quickly', () => {
    const many = JSON.stringify({ rules: Array.from({ length: 50_000 }, (_, index) => ({ name: `r${index}`, when: { metric: 'loss', above: 1, forSteps: 0 }, do: [{ notify: 'info' }] })) });
    const started = Date.now();
    const { rules, problems } = parseAlertRules(many);
    locateProblems(
      many,
      problems.map((problem) => problem.path),
    );
    assert.equal(rules.length, 0);
    assert.equal(problems.length, maxRules + 1, 'one per rule read, and one saying the rest were not');
    assert.ok(Date.now() - started < 5_000, `${Date.now() - started} ms`);
  });

  it('a job named to break out of a payload string stays inside it', () => {
    const [rule] = parseAlertRules(JSON.stringify({ rules: [{ name: 'n"}, "evil": {"', when: { job: 'failed' }, do: [{ notify: 'info' }] }] })).rules;
    const label = 'run", "admin": true, "x": "\n\u202e\\';
    const firing: AlertFiring = { rule: rule!, context: { jobId: 'j', jobLabel: label, message: '"}]}' } };
    const template = '{"text": "${alert_message}", "job": "${job_name}", "rule": "${alert_rule}"}';
    const rendered = renderPayload(analysePayload(template, 'payload'), { sample: { type: 'RUN_STATE', values: alertVariableValues(firing), metadata: {} }, maskSecrets: false });
    assert.equal(rendered.invalid, undefined);
    const body = JSON.parse(rendered.text) as Record<string, unknown>;
    assert.deepEqual(Object.keys(body), ['text', 'job', 'rule']);
    assert.equal(body.job, label);
    assert.equal(body.rule, 'n"}, "evil": {"');
  });

  it('a metric flapping across its bound on 20,000 jobs keeps bounded state, and a rule acts 3 times a minute at most', () => {
    const { rules } = parseAlertRules(JSON.stringify({ rules: [{ name: 'flap', when: { metric: 'reward', below: 0.5 }, do: [{ notify: 'info' }] }] }));
    const engine = new AlertEngine(rules);
    const budget = new FiringBudget(3, 60_000);
    let fired = 0;
    let acted = 0;
    for (let job = 0; job < 20_000; job++) {
      for (let step = 1; step <= 10; step++) {
        for (const _firing of engine.metric(`job-${job}`, 'reward', step, step % 2 === 0 ? 0.1 : 0.9, {})) {
          fired++;
          if (budget.take('flap', 1_000)) acted++;
        }
      }
    }
    assert.ok(fired > 0 && fired <= 10_000 * 5, `${fired} firings: jobs past the streak bound are not followed`);
    assert.equal(acted, 3);
  });
});
