/**
 * The extension is turned off (disabled, uninstalled, window closing) while it polls a job or
 * checks health against a slow server: every request in flight must end with its socket, and no
 * timer may go on to send another. The regular cadence is observed first, so "no request after"
 * means something: one would have come within the window watched.
 */
import { strict as assert } from 'node:assert';
import { createHook } from 'node:async_hooks';
import { ExtensionMode, FakeHost, extensionContext, loadExtension, manifestDefaults, turnOff, useHost, type ExtensionContextLike } from './support/trustHost';
import { startRecordingServer, type RecordingServer } from './support/trustServer';

const apiKey = 'rls-disposal-key-7c4e1b9a3d2f';

/**
 * Timers the extension's code (dist/, or src/ through source maps) creates from now on and that are still armed (not fired,
 * not cleared) when read, each with where it was created.
 */
function trackTimers(): { alive(): string[]; stop(): void } {
  const armed = new Map<number, string>();
  const hook = createHook({
    init(id, type) {
      if (type !== 'Timeout') return;
      const stack = new Error().stack ?? '';
      // With source maps on, the bundles' frames name the sources they were built from.
      const ours = (line: string) => /[\\/](dist|src)[\\/]/.test(line) && !/node_modules/.test(line);
      if (stack.split('\n').some(ours)) armed.set(id, stack.split('\n').filter(ours).slice(0, 4).join('\n'));
    },
    destroy(id) {
      armed.delete(id);
    },
  });
  hook.enable();
  return { alive: () => [...armed.values()], stop: () => hook.disable() };
}

async function settle(ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}

describe('trust: turned off in the middle of the work', function () {
  this.timeout(30_000);
  let server: RecordingServer;
  let host: FakeHost;
  let context: ExtensionContextLike | undefined;

  beforeEach(async () => {
    server = await startRecordingServer();
    host = new FakeHost(manifestDefaults());
    host.settings.user['rlStudio.trainingApiUrl'] = server.trainingUrl;
    host.settings.user['rlStudio.inferenceApiUrl'] = server.inferenceUrl;
    host.settings.user['rlStudio.pollingIntervalSeconds'] = 0.5;
    useHost(host);
  });

  afterEach(async () => {
    if (context) turnOff(context);
    context = undefined;
    await server.close();
  });

  async function activate(): Promise<void> {
    context = await extensionContext(ExtensionMode.Production, apiKey);
    loadExtension().activate(context);
  }

  it('turned off mid-poll of a running job: the poll in flight is aborted, every socket closes, no poll follows', async () => {
    const timers = trackTimers();
    const jobId = 'job-disposal-1';
    context = await extensionContext(ExtensionMode.Production, apiKey);
    await (context.globalState as unknown as { update(key: string, value: unknown): Promise<void> }).update(`rlStudio.jobs:${server.trainingUrl}`, [{ id: jobId, addedAt: new Date(0).toISOString() }]);
    loadExtension().activate(context);
    // Showing the Training Jobs view starts following the job.
    await host.treeViews.get('rlStudio.jobs')!.treeDataProvider.getChildren();

    const polls = () => server.calls.filter((call) => call.path.endsWith(`/training-jobs/${jobId}/events`));
    await server.waitFor('three polls at the regular cadence', () => polls().length >= 3);
    const cadenceMs = Math.max(...polls().slice(1).map((call, index) => call.at - polls()[index]!.at));
    assert.ok(polls().every((call) => call.authorization === `Bearer ${apiKey}`));

    server.hold(/\/events$/);
    const before = polls().length;
    await server.waitFor('a poll held in flight', () => server.held > 0 && polls().length > before);
    turnOff(context);
    context = undefined;
    const turnedOffAt = Date.now();
    await server.waitFor('every socket closed', () => server.sockets.open === 0);

    const callsAtClose = server.calls.length;
    await settle(Math.max(3 * cadenceMs, 1500));
    assert.deepEqual(server.calls.slice(callsAtClose).map((call) => call.path), [], `requests after turning off (cadence was ${cadenceMs} ms)`);
    assert.ok(server.calls.every((call) => call.at <= turnedOffAt), 'no request after turning off');
    timers.stop();
    assert.deepEqual(timers.alive(), [], 'timers left armed');
  });

  it('turned off mid-health-check against a server that does not answer: both checks end, their sockets close, no check follows', async () => {
    const timers = trackTimers();
    server.hold(/\/(system-check|models)$/);
    await activate();
    // The first check runs 1.5 s after activation.
    await server.waitFor('both health requests in flight', () => server.held === 2);
    assert.equal(server.sockets.open, 2);
    turnOff(context!);
    context = undefined;
    await server.waitFor('every socket closed', () => server.sockets.open === 0 && server.held === 0);
    assert.equal(host.statusItems[0]!.disposed, true, 'the status bar item is gone');

    const callsAtClose = server.calls.length;
    // A check asked for now must not reach the server either.
    assert.equal(host.commands.has('rlStudio.checkHealth'), false, 'the commands are unregistered');
    await settle(2000);
    assert.equal(server.calls.length, callsAtClose, 'requests after turning off');
    timers.stop();
    assert.deepEqual(timers.alive(), [], 'timers left armed');
  });
});
