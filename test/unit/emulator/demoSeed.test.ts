import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { join } from 'node:path';
import { startEmulator, type Emulator } from '../../emulator/index';
import { runningJobSteps } from '../../emulator/seed';

describe("emulator: the demo's live job and command line", () => {
  it('sizes the live job by wall time: 12 hours at any clock, never fewer than 1000 steps', () => {
    assert.equal(runningJobSteps(2), 21_600);
    assert.equal(runningJobSteps(0.5) * 0.5, 12 * 3600);
    assert.equal(runningJobSteps(3600), 1000);
  });

  describe('seeded live job', () => {
    let emulator: Emulator;
    before(async () => {
      emulator = await startEmulator({ secondsPerStep: 0.05 });
    });
    after(() => emulator.close());

    it("announces those steps when it starts, and the failing job fails after two steps with its group's message", async () => {
      const headers = { authorization: `Bearer ${emulator.apiKey}` };
      const events = async (id: string) =>
        ((await (await fetch(`${emulator.trainingUrl}/preview/training-jobs/${id}/events?limit=100`, { headers })).json()) as { data: Array<{ type: string; data: Record<string, unknown> }> }).data;
      const started = (await events(emulator.seeded!.runningJobId)).find((event) => event.type === 'training_started');
      assert.equal(started?.data.num_sequences, runningJobSteps(0.05));
      const failed = await events(emulator.seeded!.failedJobId);
      assert.deepEqual(
        failed.map((event) => event.type),
        ['training_started', 'gradient_step', 'gradient_step', 'training_failed'],
      );
      assert.match(String(failed.at(-1)?.data.error_message), /CUDA out of memory/);
    });
  });

  describe('npm run emulator', () => {
    let holder: Server;
    let child: ReturnType<typeof spawn> | undefined;
    before(async () => {
      holder = createServer((socket) => socket.destroy());
      await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    });
    after(async () => {
      child?.kill('SIGKILL');
      await new Promise((resolve) => holder.close(resolve));
    });

    it('takes a free port when the wanted one is taken, says so, prints the address it took, and takes its options', async () => {
      const taken = (holder.address() as AddressInfo).port;
      const main = join(__dirname, '..', '..', 'emulator', 'main.js');
      child = spawn(process.execPath, [main, '--port', String(taken), '--seconds-per-step', '0.05', '--completion-latency', '7'], { stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const address = await new Promise<RegExpExecArray>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no address printed within 10 s:\n${output}`)), 10_000);
        child!.stdout!.on('data', () => {
          const match = /training API:\s+http:\/\/127\.0\.0\.1:(\d+)\/training\/v1/.exec(output);
          if (match) {
            clearTimeout(timer);
            resolve(match);
          }
        });
        child!.once('exit', (code) => reject(new Error(`exited with ${code}:\n${output}`)));
      });
      const port = Number(address[1]);
      assert.notEqual(port, taken);
      assert.match(output, new RegExp(`Port ${taken} is in use, so the emulator uses port ${port} instead\\.`));
      const health = await fetch(`http://127.0.0.1:${port}/training/v1/health`);
      assert.equal(health.status, 200);
      const state = (await (await fetch(`http://127.0.0.1:${port}/_emulator/state`)).json()) as { completionLatencyMs: number };
      assert.equal(state.completionLatencyMs, 7);
    });
  });
});
