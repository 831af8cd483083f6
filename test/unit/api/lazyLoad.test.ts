import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * Runs in a fresh Node process, so that nothing else of the test run has loaded undici already.
 * Prints which undici modules are loaded after importing the client, and after its first request.
 */
const probe = (indexPath: string) => `
const http = require('node:http');
const loaded = () => Object.keys(require.cache).filter((file) => /[\\\\/]node_modules[\\\\/]undici[\\\\/]/.test(file)).length;
const api = require(${JSON.stringify(indexPath)});
const afterImport = loaded();
const client = new api.PlatformClient({ trainingUrl: 'http://127.0.0.1:1/v1', inferenceUrl: '', credentials: { getApiKey: async () => undefined } });
const afterConstruct = loaded();
const server = http.createServer((request, response) => response.end('{"status":"ok"}'));
server.listen(0, '127.0.0.1', async () => {
  const url = 'http://127.0.0.1:' + server.address().port + '/v1';
  const live = new api.PlatformClient({ trainingUrl: url, inferenceUrl: url, credentials: { getApiKey: async () => undefined } });
  const health = await live.training.health();
  console.log(JSON.stringify({ afterImport, afterConstruct, afterRequest: loaded(), health }));
  await live.close();
  await client.close();
  server.close();
});
`;

describe('lazy undici loading', () => {
  it('does not load undici when the client is imported or built, only on the first request', () => {
    const indexPath = join(__dirname, '..', '..', '..', 'src', 'api', 'index.js');
    const output = execFileSync(process.execPath, ['-e', probe(indexPath)], { encoding: 'utf8', timeout: 15_000 });
    const result = JSON.parse(output.trim()) as { afterImport: number; afterConstruct: number; afterRequest: number; health: unknown };
    assert.equal(result.afterImport, 0, 'undici loaded by the import');
    assert.equal(result.afterConstruct, 0, 'undici loaded by the constructor');
    assert.ok(result.afterRequest > 0, 'undici was loaded for the request');
    assert.deepEqual(result.health, { status: 'ok' });
  });
});
