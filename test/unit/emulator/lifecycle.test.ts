import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { startEmulator } from '../../emulator';
import { call, readLongStream } from './client';

describe('emulator: lifecycle', () => {
  it('closes while a slow stream is open, cutting the stream, and refuses connections afterwards', async () => {
    const emulator = await startEmulator({ seed: false, streamChunkDelayMs: 200 });
    const { ending: reading } = await readLongStream(emulator);
    // 500 tokens at 200 ms a chunk would take a minute: 'dropped' means close() cut the stream, not waited for it.
    await emulator.close();
    assert.equal(await reading, 'dropped');
    await assert.rejects(fetch(`${emulator.trainingUrl}/health`));
  });

  it('listens on the asked port and accepts its own key', async () => {
    const probe = await startEmulator({ seed: false });
    const port = Number(new URL(probe.url).port);
    await probe.close();
    const emulator = await startEmulator({ port, apiKey: 'k-1', seed: false });
    try {
      assert.equal(emulator.url, `http://127.0.0.1:${port}`);
      assert.equal(emulator.seeded, undefined);
      assert.equal((await call(emulator, 'inference', 'GET', '/models')).status, 200);
    } finally {
      await emulator.close();
    }
  });

  it('runs from the command line, logs requests and stops on SIGTERM', async () => {
    const cli = spawn(process.execPath, [join(__dirname, '../../emulator/main.js'), '--port', '0', '--key', 'cli-key', '--no-seed'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      let output = '';
      cli.stdout.setEncoding('utf8');
      cli.stdout.on('data', (part: string) => (output += part));
      const trainingUrl = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no address printed: ${output}`)), 10_000);
        cli.stdout.on('data', () => {
          const match = /training API:\s+(\S+)/.exec(output);
          if (match && output.includes('API key:')) {
            clearTimeout(timer);
            resolve(match[1]!);
          }
        });
      });
      assert.match(output, /inference API:\s+http:\/\/127\.0\.0\.1:\d+\/inference\/v1/);
      assert.match(output, /API key:\s+cli-key/);
      const health = await fetch(`${trainingUrl}/health`);
      assert.equal(health.status, 200);
      await health.text();
      const exited = once(cli, 'exit');
      cli.kill('SIGTERM');
      const [code] = await exited;
      assert.equal(code, 0);
      assert.match(output, /GET \/training\/v1\/health 200/);
    } finally {
      if (cli.exitCode === null) cli.kill('SIGKILL');
    }
  });
});
