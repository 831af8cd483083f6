import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as assert from 'node:assert/strict';
import { checkpointModelId, isCheckpointModelId, parseCheckpointModelId } from '../../../../src/platform/kit/checkpointIds';
import { parseExperimentalConfig } from '../../../../src/training/model/experimentalConfig';
import { defaultLineChars, formatDuration, formatMetric, oneLine } from '../../../../src/platform/kit/format';
import { describeFacts } from '../../../../src/platform/client/describeFailure';
import { summarizeHealth } from '../../../../src/platform/health/health';

const checks = { api: { success: true, duration: 0.01, error: null }, gpu_queue: { success: false, duration: 0.2, error: 'no GPU workers' } };

describe('health summary', () => {
  it('is healthy when both APIs answer and every check passes', () => {
    const summary = summarizeHealth({ state: 'ok', value: { healthy: true, status: 200, checks: { api: checks.api } }, ms: 12 }, { state: 'ok', value: {}, ms: 30 });
    assert.equal(summary.level, 'healthy');
    assert.match(summary.detail.join('\n'), /✓ `api`/);
  });

  it('shows a 503 system check as degraded, with the failing check in the detail', () => {
    const summary = summarizeHealth({ state: 'ok', value: { healthy: false, status: 503, checks }, ms: 5 }, { state: 'ok', value: {}, ms: 30 });
    assert.equal(summary.level, 'degraded');
    assert.match(summary.text, /degraded/);
    assert.match(summary.detail.join('\n'), /✗ `gpu_queue`.*no GPU workers/);
  });

  it("shows the server's words about a check as text: no link, image or emphasis starts from them", () => {
    const hostile = { 'x`](command:y)': { success: false, error: '![pixel](https://attacker.example/p.png) **now** $(alert)\n# heading' } };
    const summary = summarizeHealth({ state: 'ok', value: { healthy: false, status: 503, checks: hostile }, ms: 5 }, { state: 'ok', value: {}, ms: 30 });
    const line = summary.detail.find((entry) => entry.startsWith('- ✗'))!;
    assert.equal(line, '- ✗ x\\`\\]\\(command\\:y\\) — \\!\\[pixel\\]\\(https\\:\\/\\/attacker\\.example\\/p\\.png\\) \\*\\*now\\*\\* \\$\\(alert\\) \\# heading');
  });

  it('is unreachable when an API cannot be reached, and not checked when nothing is configured', () => {
    const refused = describeFacts({ kind: 'network', api: 'training', message: 'GET /system-check: could not connect to 127.0.0.1:9 (connection refused)' });
    const unavailable = describeFacts({ kind: 'http', api: 'inference', status: 503, message: 'GET /models failed: 503 Service Unavailable' });
    assert.equal(summarizeHealth({ state: 'error', failure: refused }, { state: 'ok', value: {}, ms: 1 }).level, 'down');
    assert.equal(summarizeHealth({ state: 'ok', value: { healthy: true, status: 200, checks: {} }, ms: 1 }, { state: 'error', failure: unavailable }).level, 'degraded');
    const unset = summarizeHealth({ state: 'skipped', reason: 'not configured' }, { state: 'skipped', reason: 'not configured' });
    assert.equal(unset.level, 'unknown');
    assert.equal(summarizeHealth({ state: 'skipped', reason: 'not configured' }, { state: 'ok', value: {}, ms: 1 }).level, 'healthy');
  });
});

describe('formatting', () => {
  it('formats durations for people', () => {
    assert.equal(formatDuration(850), '850 ms');
    assert.equal(formatDuration(42_000), '42 s');
    assert.equal(formatDuration(2_200), '2 s', 'whole seconds, as the chat footer and the jobs views show them');
    assert.equal(formatDuration(65_000), '1 min 05 s');
    assert.equal(formatDuration(185_000), '3 min 05 s');
    assert.equal(formatDuration(2 * 3600_000 + 7 * 60_000), '2 h 07 min');
    assert.equal(formatDuration(-1), '');
  });

  it('puts text on one line, cut at one bound unless the caller names another', () => {
    assert.equal(oneLine('  a\n\tb\r\n  c  '), 'a b c');
    const long = oneLine('x'.repeat(10_000));
    assert.equal(long.length, defaultLineChars);
    assert.ok(long.endsWith('…'));
    assert.equal(oneLine('abcdef', 4), 'abc…');
    assert.equal(oneLine('y '.repeat(1000), Number.POSITIVE_INFINITY).length, 1999);
  });

  it('formats metrics with about four significant digits', () => {
    assert.equal(formatMetric(2.345678), '2.346');
    assert.equal(formatMetric(0.00001), '1.00e-5');
    assert.equal(formatMetric(1200), '1200');
    assert.equal(formatMetric(12345678.9), '1.23e+7');
  });
});

describe('checkpoint model ids', () => {
  it('builds the id that serves a checkpoint, and the latest one without a step', () => {
    const model = { entity: 'acme', project: 'agents', name: 'agent-001' };
    assert.equal(checkpointModelId(model, 12), 'wandb-artifact:///acme/agents/agent-001:step12');
    assert.equal(checkpointModelId(model), 'wandb-artifact:///acme/agents/agent-001');
    assert.equal(checkpointModelId({ ...model, entity: '' }, 1), undefined);
  });

  it('reads back the ids it builds, and nothing else', () => {
    const model = { entity: 'acme', project: 'agents', name: 'agent-001' };
    assert.deepEqual(parseCheckpointModelId(checkpointModelId(model, 3)!), { ...model, step: 3 });
    assert.deepEqual(parseCheckpointModelId(checkpointModelId(model)!), model);
    assert.equal(isCheckpointModelId(checkpointModelId(model)!), true);
    assert.equal(isCheckpointModelId('meta-llama/Llama-3.1-8B-Instruct'), false);
    assert.equal(parseCheckpointModelId('wandb-artifact:///a b/c/d'), undefined);
  });
});

describe('experimental config', () => {
  it('is optional, and passes unknown keys through', () => {
    assert.deepEqual(parseExperimentalConfig('  '), { ok: true, value: undefined });
    assert.deepEqual(parseExperimentalConfig('{"learning_rate": 1e-5, "future_key": [1]}'), { ok: true, value: { learning_rate: 1e-5, future_key: [1] } });
  });

  it('checks the types of the keys the platform documents', () => {
    const check = (text: string) => {
      const result = parseExperimentalConfig(text);
      return result.ok ? 'ok' : result.message;
    };
    assert.equal(check('{"loss_fn": "ppo", "normalize_advantages": true, "packed_sequence_length": 4096}'), 'ok');
    assert.match(check('{"loss_fn": "sgd"}'), /one of "cispo", "ppo"/);
    assert.match(check('{"learning_rate": "fast"}'), /must be a number/);
    assert.match(check('{"packed_sequence_length": 1.5}'), /integer/);
    assert.match(check('{"scale_rewards": 1}'), /true or false/);
    assert.match(check('[1]'), /JSON object/);
    assert.match(check('{oops'), /Not valid JSON/);
    assert.match(check('{"kl_penalty_source": "teacher"}'), /one of "current_learner", "sample"/);
    assert.match(check('{"kl_ref_adapter_path": 3}'), /must be a string/);
    assert.match(check('{"kl_penalty_step_lag": 0.5}'), /integer/);
  });

  it("takes the official client's config as it sends it: every key, null for unset", () => {
    const config = JSON.parse(readFileSync(join(__dirname, '../../../../../test/fixtures/art/requests.json'), 'utf8')).trainingJob.body.experimental_config as Record<string, unknown>;
    assert.equal(Object.keys(config).length, 25);
    const result = parseExperimentalConfig(JSON.stringify(config));
    assert.deepEqual(result, { ok: true, value: Object.fromEntries(Object.entries(config).filter(([, value]) => value !== null)) });
    assert.deepEqual(parseExperimentalConfig('{"epsilon": null, "loss_fn": null}'), { ok: true, value: undefined });
    assert.deepEqual(parseExperimentalConfig(' null '), { ok: true, value: undefined });
  });
});
