import * as assert from 'node:assert/strict';
import type { HealthSummary } from '../../../../src/platform/health/health';
import { HealthMonitor, notChecked } from '../../../../src/platform/health/healthMonitor';
import { FakeClock, settle } from '../../support/fakeClock';

const healthy: HealthSummary = { level: 'healthy', text: 'RL Studio', detail: [] };

function harness() {
  const clock = new FakeClock();
  const signals: AbortSignal[] = [];
  const answers: ((summary: HealthSummary) => void)[] = [];
  const monitor = new HealthMonitor({
    clock,
    firstCheckDelayMs: 1500,
    recheckMs: 300_000,
    probe: (signal) => {
      signals.push(signal);
      return new Promise((resolve) => answers.push(resolve));
    },
  });
  return { clock, monitor, signals, answers };
}

describe('health monitor', () => {
  it('checks a little after start, then again after each check, with one timer at most', async () => {
    const { clock, monitor, signals, answers } = harness();
    monitor.start();
    assert.deepEqual(clock.delays(), [1500]);
    await clock.advance(1500);
    assert.equal(signals.length, 1);
    assert.equal(clock.pending(), 0, 'no timer while a check runs');
    answers.shift()!(healthy);
    await settle();
    assert.deepEqual(clock.delays(), [300_000]);
    const shared = [monitor.check(), monitor.check()];
    assert.equal(signals.length, 2, 'a check on request, shared');
    answers.shift()!(healthy);
    assert.deepEqual(await Promise.all(shared), [healthy, healthy]);
    assert.deepEqual(clock.delays(), [300_000]);
  });

  it('leaves no timer after dispose, aborts the running check and does not re-arm when it settles', async () => {
    const { clock, monitor, signals, answers } = harness();
    monitor.start();
    await clock.advance(1500);
    const running = monitor.check();
    monitor.dispose();
    assert.equal(signals[0]!.aborted, true);
    assert.equal(monitor.armed, false);
    answers.shift()!(healthy);
    assert.equal(await running, notChecked);
    await clock.advance(3_600_000);
    assert.equal(clock.pending(), 0);
    assert.equal(signals.length, 1);
    assert.equal(await monitor.check(), notChecked, 'a check after dispose asks nothing');
    assert.equal(signals.length, 1);
  });

  it('stops a check about the old connection when it changes, and checks the new one shortly', async () => {
    const { clock, monitor, signals, answers } = harness();
    void monitor.check();
    monitor.restart();
    assert.equal(signals[0]!.aborted, true);
    answers.shift()!(healthy);
    await settle();
    assert.deepEqual(clock.delays(), [1500]);
    monitor.dispose();
  });

  it('reads a probe that throws as a failed check and keeps checking', async () => {
    const clock = new FakeClock();
    const monitor = new HealthMonitor({
      clock,
      firstCheckDelayMs: 10,
      recheckMs: 100,
      probe: async () => {
        throw new Error('no client');
      },
    });
    const summary = await monitor.check();
    assert.equal(summary.level, 'unknown');
    assert.match(summary.detail.join(' '), /no client/);
    assert.deepEqual(clock.delays(), [100]);
    monitor.dispose();
    assert.equal(clock.pending(), 0);
  });
});
