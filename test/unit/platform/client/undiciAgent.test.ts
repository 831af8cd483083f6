/**
 * The network bundle loads undici's Agent by its own path, without the package's main entry: in a
 * fresh process (nothing else of undici loaded), the Agent makes a request and reads its answer,
 * and the bundle that ships holds none of what the main entry alone brings (fetch, WebSocket, mocks).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';

const repoRoot = join(__dirname, '..', '..', '..', '..', '..');

describe("undici's Agent without undici's main entry", () => {
  let server: Server;
  let url = '';
  before(async () => {
    server = createServer((request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ path: request.url }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('requests and reads an answer in a process that never loaded the main entry', async () => {
    const script = `
      const { Agent } = require(${JSON.stringify(join(repoRoot, 'out', 'src', 'platform', 'client', 'undiciAgent.js'))});
      const agent = new Agent();
      agent.request({ origin: ${JSON.stringify(url)}, path: '/v1/health', method: 'GET' })
        .then(async (response) => {
          const body = await response.body.text();
          const mainEntry = Object.keys(require.cache).some((file) => /undici[\\\\/]index\\.js$/.test(file));
          console.log(JSON.stringify({ status: response.statusCode, body, mainEntry }));
          await agent.close();
        });
    `;
    // Not execFileSync: this process's server must answer meanwhile.
    const { stdout: output } = await promisify(execFile)(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 20_000 });
    assert.deepEqual(JSON.parse(output.trim()), { status: 200, body: JSON.stringify({ path: '/v1/health' }), mainEntry: false });
  });

  it('the shipped network bundle holds no fetch, WebSocket or mock agent of undici', () => {
    const bundle = readFileSync(join(repoRoot, 'dist', 'network.js'), 'utf8');
    for (const absent of ['MockAgent', 'WebSocketStream', 'EnvHttpProxyAgent']) assert.ok(!bundle.includes(absent), `dist/network.js holds ${absent}`);
  });
});
