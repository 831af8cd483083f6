import * as assert from 'node:assert/strict';
import { firingKey, parseAlertRules, type AlertFiring } from '../../../src/alerts/model/alertRules';
import { alertNotice, alertVariableValues } from '../../../src/alerts/model/alertVariables';
import { FiringBudget } from '../../../src/alerts/model/firingBudget';
import { AlertEngine } from '../../../src/alerts/model/alertRules';
import { AlertJobFeed, type FeedChange } from '../../../src/alerts/model/jobFeed';
import { locateProblems, parseProblemPath, rangesOf } from '../../../src/platform/kit/jsonProblemLocations';
import { isInsideFolder, workspaceRelativePath } from '../../../src/alerts/model/workspacePath';
import { alertVariables } from '../../../src/webhooks/model/payload';
import { analysePayload, complete, defaultSampleEvent, diagnose } from '../../../src/webhooks/model/payload';

const rulesOf = (rules: unknown[]) => parseAlertRules(JSON.stringify({ rules })).rules;

describe('what a fired alert says and fills in', () => {
  const [metricRule, failedRule, canaryRule] = rulesOf([
    { name: 'Reward "collapsed"', when: { metric: 'reward', below: 0.2, forSteps: 3 }, do: [{ notify: 'warning' }] },
    { name: 'Failed', when: { job: 'failed' }, do: [{ notify: 'error' }] },
    { name: 'Canary', when: { canary: 'drop' }, do: [{ notify: 'warning' }] },
  ]);

  it('leads the notification with the rule name, quoting the foreign text', () => {
    const firing: AlertFiring = { rule: metricRule!, context: { jobId: 'job-1', jobLabel: 'run\n7', step: 340, value: 0.123456 } };
    assert.equal(alertNotice(firing), 'Alert "Reward \\"collapsed\\"": "reward" was 0.1235 at job step 340 of training job "run\\n7" (reward below 0.2 for 3 steps).');
    const failed: AlertFiring = { rule: failedRule!, context: { jobId: 'job-2', step: 2, message: 'CUDA "out" of memory' } };
    assert.equal(alertNotice(failed), 'Alert "Failed": training job "job-2" failed at job step 2: "CUDA \\"out\\" of memory".');
    const drop: AlertFiring = { rule: canaryRule!, context: { modelId: 'agent-001', step: 58, value: 0.61, best: 0.72, interval: [-0.15, -0.03] } };
    assert.equal(alertNotice(drop), 'Alert "Canary": the canary score of model "agent-001"\'s checkpoint at model step 58 dropped to 0.61, best so far 0.72; paired difference -0.15 to -0.03.');
  });

  it('fills every alert variable of the catalogue, escaped for a JSON string, blank where it does not apply', () => {
    const firing: AlertFiring = { rule: metricRule!, context: { jobId: 'job-1', jobLabel: 'a "b"', modelId: 'm', step: 340, value: 0.12 } };
    const values = alertVariableValues(firing);
    assert.deepEqual(
      Object.keys(values).sort(),
      alertVariables()
        .map((variable) => variable.name)
        .sort(),
    );
    assert.equal(values.job_name, 'a \\"b\\"');
    assert.equal(values.alert_rule, 'Reward \\"collapsed\\"');
    assert.deepEqual([values.step, values.metric_name, values.metric_value, values.model_id], ['340', 'reward', '0.12', 'm']);
    // The whole rendering stays one JSON string whatever the names hold.
    assert.equal(JSON.parse(`"${values.alert_message}"`), JSON.parse(`"${values.alert_message}"`));
    const failed = alertVariableValues({ rule: failedRule!, context: { jobId: 'j' } });
    assert.deepEqual([failed.metric_name, failed.metric_value, failed.step, failed.model_id], ['', '', '', '']);
    const drop = alertVariableValues({ rule: canaryRule!, context: { modelId: 'm', step: 58, value: 0.61, metric: 'canary score' } });
    assert.deepEqual([drop.job_id, drop.metric_name, drop.metric_value, drop.step], ['', 'canary score', '0.61', '58']);
  });

  it('offers the alert variables in payloads, not in platform automations, and warns there', () => {
    const labels = (text: string, kind: 'payload' | 'automation') => {
      const cursor = text.indexOf('${') + 2;
      return complete(analysePayload(text, kind), cursor, { sample: defaultSampleEvent() })?.items.map((item) => item.label) ?? [];
    };
    assert.ok(labels('{"a": "${}"}', 'payload').includes('metric_value'));
    const automation = '{"name": "n", "scope": {"project": "p"}, "event": {"type": "RUN_STATE"}, "team": "t", "webhook": "w", "payload": {"a": "${}"}}';
    assert.ok(!labels(automation, 'automation').includes('metric_value'));
    assert.ok(labels(automation, 'automation').includes('project_name'));
    const codes = diagnose(analysePayload(automation.replace('${}', '${job_id}'), 'automation')).map((diagnostic) => diagnostic.code);
    assert.ok(codes.includes('alert-variable-in-automation'), codes.join());
    assert.deepEqual(
      diagnose(analysePayload('{"a": "${job_id} ${metric_value}"}', 'payload')).map((diagnostic) => diagnostic.code),
      [],
    );
  });
});

describe('one window acts on a firing', () => {
  it('names a firing the same way in every window, and two firings differently', () => {
    const [metric, failed] = rulesOf([
      { name: 'low', when: { metric: 'reward', below: 0.2 }, do: [{ notify: 'info' }] },
      { name: 'failed', when: { job: 'failed' }, do: [{ notify: 'info' }] },
    ]);
    const at = (step: number) => firingKey({ rule: metric!, context: { jobId: 'j', step, value: 0.1 } });
    assert.equal(at(3), at(3));
    assert.notEqual(at(3), at(4));
    assert.notEqual(firingKey({ rule: failed!, context: { jobId: 'j' } }), firingKey({ rule: failed!, context: { jobId: 'k' } }));
  });
});

describe('a payload path from a rules file stays in its workspace folder', () => {
  it('accepts relative paths inside, and refuses absolute ones and ones that climb out', () => {
    assert.deepEqual(workspaceRelativePath('payloads/failed.payload.json'), { segments: ['payloads', 'failed.payload.json'] });
    assert.deepEqual(workspaceRelativePath('./a/../b\\c.json'), { segments: ['b', 'c.json'] });
    for (const outside of ['../secrets.json', 'a/../../b.json', '/etc/passwd', 'C:\\Users\\x.json', 'c:/x.json', '\\\\server\\share\\x', 'file:///etc/passwd', '.', 'a\0b']) {
      assert.ok('problem' in workspaceRelativePath(outside), outside);
    }
    const [rule] = rulesOf([{ name: 'n', when: { job: 'failed' }, do: [{ webhook: 'w', payload: '../../.ssh/id_rsa' }] }]);
    assert.equal(rule, undefined, 'a rule whose only action leaves the folder is not kept');
  });

  it('judges where a link really leads', () => {
    assert.equal(isInsideFolder('/work/project', '/work/project/payloads/a.json'), true);
    assert.equal(isInsideFolder('/work/project/', '/work/project/a.json'), true);
    assert.equal(isInsideFolder('/work/project', '/work/project-other/a.json'), false);
    assert.equal(isInsideFolder('/work/project', '/etc/passwd'), false);
    assert.equal(isInsideFolder('C:\\work', 'C:\\work\\a.json', '\\'), true);
  });
});

describe('how often a rule may act', () => {
  it('acts at most N times in any window, per rule, and forgets the oldest rules past its bound', () => {
    const budget = new FiringBudget(3, 60_000, 2);
    assert.deepEqual(
      [0, 1_000, 2_000, 3_000].map((at) => budget.take('flapping', at)),
      [true, true, true, false],
    );
    assert.equal(budget.take('other', 3_000), true, 'each rule has its own budget');
    assert.equal(budget.take('flapping', 59_999), false);
    assert.equal(budget.take('flapping', 60_000), true, 'a minute after the first, one more');
    budget.take('third', 61_000);
    assert.equal(budget.take('other', 61_000), true);
  });
});

describe('feeding job metrics to the rules', () => {
  const [rule] = rulesOf([{ name: 'low', when: { metric: 'reward', below: 0.5, forSteps: 2 }, do: [{ notify: 'info' }] }]);
  const steps = (first: number, values: number[]) => ({
    newEvents: values.map((reward) => ({ type: 'gradient_step', data: { reward, step: 100 + first } })),
    jobSteps: values.map((_, index) => first + index),
  });
  const feedOf = (options: { maxStepsPerChange?: number; maxJobs?: number } = {}) =>
    new AlertJobFeed(new AlertEngine([rule!]), {
      metricsOf: (event) => Object.fromEntries(Object.entries(event.data).filter(([key, value]) => key !== 'step' && typeof value === 'number')) as Record<string, number>,
      ...options,
    });
  const change = (id: string, over: boolean, part: ReturnType<typeof steps>): FeedChange => ({ id, loaded: true, over, context: { jobId: id }, ...part });

  it('fires on a live job, with the job step', () => {
    const feed = feedOf();
    assert.deepEqual(feed.change(change('j', false, steps(1, [0.9, 0.1]))), []);
    const fired = feed.change(change('j', false, steps(3, [0.2])));
    assert.deepEqual(
      fired.map((firing) => [firing.rule.name, firing.context.step, firing.context.value]),
      [['low', 3, 0.2]],
    );
    assert.equal(feed.change(change('j', true, steps(4, [0.1, 0.1]))).length, 0, 'once per stretch; its last steps are still read');
    assert.equal(feed.change(change('j', false, steps(6, [0.9, 0.1, 0.1]))).length, 0, 'nothing after it ended');
  });

  it('tells of the history of a job first seen moving only a stretch still going on', () => {
    const feed = feedOf();
    assert.deepEqual(feed.change(change('past', false, steps(1, [0.1, 0.1, 0.1, 0.9, 0.9]))), [], 'the stretch came back before it was seen');
    const ongoing = feedOf().change(change('now', false, steps(1, [0.1, 0.1, 0.9, 0.1, 0.1, 0.1])));
    assert.deepEqual(
      ongoing.map((firing) => firing.context.step),
      [5],
      'the stretch going on, once, at the step it fired',
    );
  });

  it('never fires for a job already over when first seen, nor one not loaded', () => {
    const feed = feedOf();
    assert.deepEqual(feed.change(change('old', true, steps(1, [0.1, 0.1, 0.1]))), []);
    assert.deepEqual(feed.change(change('old', false, steps(4, [0.1, 0.1]))), []);
    assert.deepEqual(feed.change({ ...change('new', false, steps(1, [0.1, 0.1])), loaded: false }), []);
  });

  it('reads only the newest steps of a change, and a bounded number of jobs', () => {
    const feed = feedOf({ maxStepsPerChange: 1, maxJobs: 1 });
    assert.deepEqual(feed.change(change('a', false, steps(1, [0.1, 0.1, 0.1]))), [], 'one step read: no stretch of two');
    assert.equal(feed.change(change('a', false, steps(4, [0.1]))).length, 1);
    assert.deepEqual(feed.change(change('b', false, steps(1, [0.1, 0.1]))), []);
    assert.equal(feed.change(change('b', false, steps(3, [0.1]))).length, 0, 'past the bound of jobs');
  });
});

describe('where a rules file problem is shown', () => {
  it('reads paths, and puts each problem on the value it names, or the nearest one that exists', () => {
    assert.deepEqual(parseProblemPath('rules[2].do[0].payload'), ['rules', 2, 'do', 0, 'payload']);
    assert.deepEqual(parseProblemPath(''), []);
    const text = '{\n  "rules": [\n    {"name": "a", "when": {"metric": "loss", "above": 1, "forSteps": 0}, "do": [{"notify": "info"}]}\n  ]\n}\n';
    const { problems } = parseAlertRules(text);
    const spans = locateProblems(
      text,
      problems.map((problem) => problem.path),
    );
    assert.deepEqual(
      spans.map((span) => text.slice(span.offset, span.offset + span.length)),
      ['0'],
    );
    const column = text.split('\n')[2]!.indexOf('"forSteps": 0') + '"forSteps": '.length;
    assert.deepEqual(rangesOf(text, spans), [{ line: 2, column, endLine: 2, endColumn: column + 1 }]);
    assert.deepEqual(rangesOf('a\r\nb\rc', [{ offset: 5, length: 1 }]), [{ line: 2, column: 0, endLine: 2, endColumn: 1 }]);
    const missing = locateProblems(text, ['rules[0].when.below', 'rules[7]']);
    assert.equal(text.slice(missing[0]!.offset, missing[0]!.offset + 1), '{', 'a missing key: on its object');
    assert.equal(text.slice(missing[1]!.offset, missing[1]!.offset + 1), '[', 'a missing rule: on the list');
    const broken = '{"rules": [}';
    assert.deepEqual(locateProblems(broken, ['']), [{ offset: 11, length: 1 }]);
  });
});
