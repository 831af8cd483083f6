/**
 * The extension is turned off (disabled, uninstalled, window closing) while it polls a job or
 * checks health against a slow server: every request in flight must end with its socket, and no
 * timer may go on to send another. "Nothing follows" is shown by what is left, not by a quiet
 * while: once every timer the extension armed is gone, nothing can start a request any more, and
 * none was made since it was turned off.
 */
import { strict as assert } from 'node:assert';
import { untilNothingArmed, watchArmedTimers, watchRequestsTo, type ArmedTimers } from '../support/afterTurningOff';
import { rememberedJob } from '../support/builders';
import { ExtensionMode, FakeHost, extensionContext, loadExtension, manifestDefaults, turnOff, useHost, type ExtensionContextLike } from './support/trustHost';
import { startRecordingServer, type RecordingServer } from './support/trustServer';

const apiKey = 'rls-disposal-key-7c4e1b9a3d2f';

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

  /**
   * Turns the extension off; `ended` waits for (and checks) what turning off must end. Then nothing
   * follows: no timer of the extension is left armed, and no request was made or received since.
   */
  async function turnOffAndCheckNothingFollows(timers: ArmedTimers, ended: () => Promise<void>): Promise<void> {
    const requests = watchRequestsTo(server.url);
    try {
      turnOff(context!);
      context = undefined;
      const callsAtTurnOff = server.calls.length;
      await ended();
      await untilNothingArmed(timers);
      assert.deepEqual(requests.made, [], 'requests made after turning off');
      assert.equal(server.calls.length, callsAtTurnOff, 'requests received after turning off');
    } finally {
      requests.stop();
      timers.stop();
    }
  }

  it('turned off mid-poll of a running job: the poll in flight is aborted, every socket closes, no poll follows', async () => {
    const timers = watchArmedTimers();
    const jobId = 'job-disposal-1';
    context = await extensionContext(ExtensionMode.Production, apiKey);
    await (context.globalState as unknown as { update(key: string, value: unknown): Promise<void> }).update(`rlStudio.jobs:${server.trainingUrl}`, [rememberedJob(jobId)]);
    loadExtension().activate(context);
    // Showing the Training Jobs view starts following the job.
    await host.treeViews.get('rlStudio.jobs')!.treeDataProvider.getChildren();

    const polls = () => server.calls.filter((call) => call.path.endsWith(`/training-jobs/${jobId}/events`));
    await server.waitFor('three polls at the regular cadence', () => polls().length >= 3);
    assert.ok(polls().every((call) => call.authorization === `Bearer ${apiKey}`));

    server.hold(/\/events$/);
    const before = polls().length;
    await server.waitFor('a poll held in flight', () => server.held > 0 && polls().length > before);
    await turnOffAndCheckNothingFollows(timers, () => server.waitFor('every socket closed', () => server.sockets.open === 0));
    assert.equal(server.held, 0, 'the held poll ended with its socket');
  });

  it('turned off mid-health-check against a server that does not answer: both checks end, their sockets close, no check follows', async () => {
    const timers = watchArmedTimers();
    server.hold(/\/(system-check|models)$/);
    await activate();
    // The first check runs 1.5 s after activation.
    await server.waitFor('both health requests in flight', () => server.held === 2);
    assert.equal(server.sockets.open, 2);
    await turnOffAndCheckNothingFollows(timers, async () => {
      await server.waitFor('every socket closed', () => server.sockets.open === 0 && server.held === 0);
      assert.equal(host.statusItems[0]!.disposed, true, 'the status bar item is gone');
      // A check asked for now must not reach the server either.
      assert.equal(host.commands.has('rlStudio.checkHealth'), false, 'the commands are unregistered');
    });
  });
});
