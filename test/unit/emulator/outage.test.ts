import assert from 'node:assert/strict';
import { startEmulator } from '../../emulator';
import { trajectoryGroups } from '../../support/builders';
import { allEvents, call, readLongStream } from './client';

/** What a client sees: an answer's status, or the code of the connection error. */
async function reach(url: string): Promise<number | string> {
  try {
    return (await fetch(url)).status;
  } catch (error) {
    return String((error as { cause?: { code?: unknown } }).cause?.code ?? error);
  }
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('emulator: outages and pace', () => {
  it('goes down (connection refused) and comes back on the same port with everything it held', async () => {
    const emulator = await startEmulator({ secondsPerStep: 0.01 });
    try {
      const health = `${emulator.trainingUrl}/health`;
      const jobs = (await call(emulator, 'control', 'GET', '/state')).json.counts.jobs;
      await emulator.setReachable(false);
      assert.equal(emulator.reachable, false);
      assert.equal(await reach(health), 'ECONNREFUSED');
      await emulator.setReachable(true);
      assert.equal(emulator.reachable, true);
      assert.equal(await reach(health), 200);
      assert.equal((await call(emulator, 'control', 'GET', '/state')).json.counts.jobs, jobs, 'the same store');
    } finally {
      await emulator.close();
    }
  });

  it('drops connections that were open when it went down', async () => {
    const emulator = await startEmulator({ seed: false, streamChunkDelayMs: 200 });
    try {
      const { ending: reading } = await readLongStream(emulator);
      await emulator.setReachable(false);
      assert.equal(await reading, 'dropped');
    } finally {
      await emulator.close();
    }
  });

  it('an outage asked through the control endpoint answers first, then ends by itself', async () => {
    const emulator = await startEmulator({ seed: false });
    try {
      const answer = await call(emulator, 'control', 'POST', '/outage', { body: { seconds: 0.3 } });
      assert.deepEqual(answer.json, { down: true, seconds: 0.3 });
      await until('the outage', async () => (await reach(`${emulator.trainingUrl}/health`)) === 'ECONNREFUSED');
      await until('the way back', async () => (await reach(`${emulator.trainingUrl}/health`)) === 200);
      assert.equal((await call(emulator, 'control', 'POST', '/outage', { body: { seconds: 86_400 } })).status, 400, 'a day is refused');
    } finally {
      await emulator.close();
    }
  });

  it('closes while down, and nothing comes back after close', async () => {
    const emulator = await startEmulator({ seed: false });
    // A witness asked for the same outage afterwards: once it is back, the closed one's outage would have ended too.
    const witness = await startEmulator({ seed: false });
    try {
      await call(emulator, 'control', 'POST', '/outage', { body: { seconds: 0.2 } });
      await until('the outage', async () => !emulator.reachable);
      await emulator.close();
      await call(witness, 'control', 'POST', '/outage', { body: { seconds: 0.2 } });
      await until('the witness down', async () => !witness.reachable);
      await until('the witness back', async () => (await reach(`${witness.trainingUrl}/health`)) === 200);
      assert.equal(await reach(`${emulator.trainingUrl}/health`), 'ECONNREFUSED');
    } finally {
      await witness.close();
    }
  });

  it('slows the jobs created afterwards, and leaves the pace of running ones alone', async () => {
    const emulator = await startEmulator({ secondsPerStep: 0.05 });
    try {
      const ids = emulator.seeded!;
      const eventsOf = async (jobId: string) => (await allEvents(emulator, jobId)).length;
      const before = await eventsOf(ids.runningJobId);
      emulator.setSecondsPerStep(60);
      await until('the seeded job to go on at its own pace', async () => (await eventsOf(ids.runningJobId)) > before);
      const created = await call(emulator, 'training', 'POST', '/preview/training-jobs', {
        body: { model_id: ids.trainedModelId, trajectory_groups: trajectoryGroups(5) },
      });
      assert.equal(created.status, 200, created.text);
      // Three more steps of the seeded job at 0.05 s: a new job at that pace would have started by then.
      const seededThen = await eventsOf(ids.runningJobId);
      await until('three more steps of the seeded job', async () => (await eventsOf(ids.runningJobId)) >= seededThen + 3);
      assert.equal(await eventsOf(created.json.id), 0, 'one step takes a minute now');
      assert.equal((await call(emulator, 'control', 'POST', '/pace', { body: { secondsPerStep: 0 } })).status, 400);
    } finally {
      await emulator.close();
    }
  });
});
