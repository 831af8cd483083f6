import * as assert from 'node:assert/strict';
import { describeFacts } from '../../../../src/platform/client/describeFailure';
import { PlatformHealth, systemCheckLine, type HealthChange } from '../../../../src/platform/health/health';
import { HealthMonitor } from '../../../../src/platform/health/healthMonitor';
import { FakeClock, settle } from '../../support/fakeClock';

const urls = { training: 'http://127.0.0.1:8787/training/v1', inference: 'http://127.0.0.1:8787/inference/v1' };

function stateWithLog() {
  const clock = new FakeClock();
  const health = new PlatformHealth({ clock, context: () => ({ urls }) });
  const changes: HealthChange[] = [];
  health.onDidChange((change) => changes.push(change));
  return { clock, health, changes };
}

/** What the client's request log reports for one attempt. */
const refused = {
  api: 'training' as const,
  method: 'GET',
  path: '/training-jobs/j/events?limit=100',
  error: 'GET /training-jobs/j/events?limit=100: could not connect to 127.0.0.1:8787 (connection refused)',
  kind: 'network' as const,
};
const answered = { api: 'training' as const, method: 'GET', path: '/training-jobs/j/events?limit=100', status: 200, ms: 12 };

/** The tooltip lines as a person reads them: the Markdown escapes of the failure's words removed. */
function shownText(detail: readonly string[]): string {
  return detail.join('\n').replace(/\\([!-/:-@[-`{-~])/g, '$1');
}

describe('platform health fed by every call', () => {
  it('a refused connection marks the API unreachable at once; the next answer marks it reachable and says it recovered', () => {
    const { health, changes } = stateWithLog();
    health.noteCall(answered);
    health.noteCall(refused);
    assert.equal(health.summary().level, 'down');
    assert.equal(health.summary().text, 'RL Studio: training API unreachable');
    assert.equal(health.failure('training')?.message, "Can't reach the training API at 127.0.0.1:8787.");
    assert.match(shownText(health.summary().detail), /\*\*Training API\*\*: Can't reach the training API at 127\.0\.0\.1:8787\./);
    health.noteCall(answered);
    assert.equal(health.summary().level, 'healthy');
    assert.deepEqual(
      changes.map((change) => `${change.current.state}${change.recovered ? ' (recovered)' : ''}`),
      ['reachable', 'failing', 'reachable (recovered)'],
    );
  });

  it('the same failure again is no news: listeners hear of changes only', () => {
    const { health, changes } = stateWithLog();
    health.noteCall(refused);
    health.noteCall(refused);
    health.noteCall(refused);
    assert.equal(changes.length, 1);
  });

  it('a 429 is "rate limited" (a degraded level), never unreachable; a 404 or 422 proves the API answers; a cancelled call says nothing', () => {
    const { health } = stateWithLog();
    health.noteCall({ api: 'inference', method: 'GET', path: '/models', status: 429, error: 'GET /models failed: 429 Too many requests', kind: 'http' });
    assert.equal(health.summary().level, 'degraded');
    assert.equal(health.summary().text, 'RL Studio: inference API rate limited');
    assert.equal(health.failure('inference')?.kind, 'rate-limited');
    assert.match(shownText(health.summary().detail), /\*\*Inference API\*\*: Too many requests \(429\): the platform asked RL Studio to slow down\./);
    health.noteCall({ api: 'inference', method: 'GET', path: '/models/x', status: 404, error: 'GET /models/x failed: 404 Not found', kind: 'http' });
    assert.equal(health.condition('inference').state, 'reachable');
    health.noteCall({ api: 'training', method: 'GET', path: '/x', error: 'GET /x was cancelled', kind: 'aborted' });
    assert.equal(health.condition('training').state, 'unknown');
  });

  it('names the platform when both APIs are down, and a refused key as such', () => {
    const { health } = stateWithLog();
    health.noteCall(refused);
    health.noteCall({ ...refused, api: 'inference', path: '/models' });
    assert.equal(health.summary().text, 'RL Studio: platform unreachable');
    health.noteFailure('inference', describeFacts({ kind: 'http', status: 401, api: 'inference', message: 'GET /models failed: 401 Invalid API key' }));
    assert.equal(health.summary().text, 'RL Studio: key rejected');
    assert.equal(health.summary().retrySoon, true, 'the training API may come back by itself');
  });

  it("says which API fails and how, in describeFailure's words: no answer at all before an answer with errors", () => {
    const { health } = stateWithLog();
    health.noteCall({ api: 'inference', method: 'GET', path: '/models', status: 503, error: 'GET /models failed: 503 Engine overloaded', kind: 'http' });
    assert.equal(health.summary().text, 'RL Studio: inference API unavailable');
    health.noteCall({ api: 'training', method: 'GET', path: '/health', error: 'GET /health timed out after 10 s', kind: 'timeout' });
    assert.equal(health.summary().text, 'RL Studio: training API not answering');
    assert.equal(health.summary().level, 'down');
    health.noteCall({ api: 'training', method: 'GET', path: '/health', status: 500, error: 'GET /health failed: 500 Internal', kind: 'http' });
    assert.equal(health.summary().text, 'RL Studio: training API failing');
    health.noteCall({ api: 'inference', method: 'GET', path: '/models', status: 500, error: 'GET /models failed: 500 Internal', kind: 'http' });
    assert.equal(health.summary().text, 'RL Studio: platform failing');
  });

  it('keeps a failing system check across answers that carry none, until a check says otherwise', () => {
    const { health } = stateWithLog();
    health.noteAnswer('training', { system: { healthy: false, status: 503, checks: { gpu_queue: { success: false, error: 'no GPU workers' } } } });
    health.noteCall(answered);
    assert.equal(health.summary().level, 'degraded');
    assert.match(health.summary().detail.join('\n'), /✗ `gpu_queue`.*no GPU workers/);
    health.noteAnswer('training', { system: { healthy: true, status: 200, checks: {} } });
    assert.equal(health.summary().level, 'healthy');
  });

  it('forgets everything when the connection changes', () => {
    const { health } = stateWithLog();
    health.noteCall(refused);
    health.reset();
    assert.equal(health.summary().level, 'unknown');
  });
});

describe('health monitor while the platform fails', () => {
  function monitorWith(levels: ('healthy' | 'down')[]) {
    const clock = new FakeClock();
    const scheduled: (number | undefined)[] = [];
    let checks = 0;
    const monitor = new HealthMonitor({
      clock,
      firstCheckDelayMs: 1500,
      recheckMs: 300_000,
      quickRecheckMs: [2000, 4000, 8000],
      onScheduled: (at) => scheduled.push(at === undefined ? undefined : at - clock.now()),
      probe: async () => {
        const level = levels[Math.min(checks, levels.length - 1)]!;
        checks++;
        return { level, text: '', detail: [], retrySoon: level === 'down' };
      },
    });
    return { clock, monitor, scheduled, checks: () => checks };
  }

  it('checks again after 2, 4, 8, 8 s while it fails, and every 5 minutes once it answers', async () => {
    const { clock, monitor, checks } = monitorWith(['down', 'down', 'down', 'down', 'healthy']);
    await monitor.check();
    assert.deepEqual(clock.delays(), [2000]);
    await clock.advance(2000);
    assert.deepEqual(clock.delays(), [4000]);
    await clock.advance(4000);
    assert.deepEqual(clock.delays(), [8000]);
    await clock.advance(8000);
    assert.deepEqual(clock.delays(), [8000], 'the last wait repeats');
    await clock.advance(8000);
    assert.equal(checks(), 5);
    assert.deepEqual(clock.delays(), [300_000]);
    monitor.dispose();
    assert.equal(clock.pending(), 0);
  });

  it('a failed call brings a check forward, never adds a second timer, and waits as long as the server asked', async () => {
    const { clock, monitor, scheduled } = monitorWith(['healthy']);
    await monitor.check();
    assert.deepEqual(clock.delays(), [300_000]);
    monitor.checkSoon();
    assert.deepEqual(clock.delays(), [2000]);
    monitor.checkSoon();
    assert.deepEqual(clock.delays(), [2000], 'one timer, not two');
    assert.equal(scheduled.at(-1), 2000, 'the next check time is published');
    monitor.dispose();
    const rateLimited = monitorWith(['healthy']);
    await rateLimited.monitor.check();
    rateLimited.monitor.checkSoon(8000);
    assert.deepEqual(rateLimited.clock.delays(), [8000]);
    rateLimited.monitor.dispose();
  });

  it('a call that failed while a check ran makes the next check come soon, whatever that check found', async () => {
    const clock = new FakeClock();
    let answer: (() => void) | undefined;
    const monitor = new HealthMonitor({
      clock,
      firstCheckDelayMs: 1500,
      recheckMs: 300_000,
      quickRecheckMs: [2000],
      probe: () => new Promise((resolve) => (answer = () => resolve({ level: 'healthy', text: '', detail: [] }))),
    });
    const running = monitor.check();
    monitor.checkSoon();
    await settle();
    answer!();
    await running;
    assert.deepEqual(clock.delays(), [2000]);
    monitor.dispose();
  });
});

describe('systemCheckLine', () => {
  const quote = (name: string) => `"${name}"`;

  it('says a healthy check passed', () => {
    assert.equal(systemCheckLine({ healthy: true, status: 200, checks: { db: { success: true } } }, quote), 'system check passed');
  });

  it('names the parts that did not pass, read as the status bar reads them', () => {
    const system = { healthy: false, status: 503, checks: { db: { success: true }, queue: { success: false }, cache: { error: 'slow' } } };
    assert.equal(systemCheckLine(system, quote), 'system check failing: "queue", "cache"');
  });

  it('gives the status when no part says what failed', () => {
    assert.equal(systemCheckLine({ healthy: false, status: 503, checks: {} }, quote), 'system check failing: status "503"');
  });
});
