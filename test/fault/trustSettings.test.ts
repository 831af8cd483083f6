/**
 * Hostile values in settings (a repository's or the user's own): addresses that are not what they
 * look like, numbers that would stop polling or flood the server. Read through the real settings
 * code, in the Node stand-in of VS Code.
 */
import { strict as assert } from 'node:assert';
import { FakeHost, manifestDefaults, useHost } from './support/trustHost';

describe('trust: hostile setting values', () => {
  let settings: typeof import('../../src/platform/host/settings');
  let addresses: typeof import('../../src/platform/trust/addresses');
  let policy: typeof import('../../src/platform/trust/endpointPolicy');
  let host: FakeHost;

  before(() => {
    host = new FakeHost(manifestDefaults());
    useHost(host);
    settings = require('../../src/platform/host/settings') as typeof import('../../src/platform/host/settings');
    addresses = require('../../src/platform/trust/addresses') as typeof import('../../src/platform/trust/addresses');
    policy = require('../../src/platform/trust/endpointPolicy') as typeof import('../../src/platform/trust/endpointPolicy');
  });

  const read = (user: Record<string, unknown>, workspace: Record<string, unknown> = {}, approved: string[] = []) => {
    useHost(host);
    host.settings.user = Object.fromEntries(Object.entries(user).map(([key, value]) => [`rlStudio.${key}`, value]));
    host.settings.workspace = Object.fromEntries(Object.entries(workspace).map(([key, value]) => [`rlStudio.${key}`, value]));
    return settings.readSettings((key) => approved.includes(key));
  };

  for (const [value, timeoutMs, pollMs] of [
    [0, 1000, 500],
    [-5, 1000, 500],
    [0.001, 1000, 500],
    [1e12, 3_600_000, 3_600_000],
    [Number.NaN, 60_000, 1000],
    [Infinity, 60_000, 1000],
    ['60', 60_000, 1000],
    [null, 60_000, 1000],
  ] as Array<[unknown, number, number]>) {
    it(`request timeout and polling interval set to ${String(value)} (${typeof value}): used as ${timeoutMs} ms and ${pollMs} ms`, () => {
      const { settings: read1 } = read({ requestTimeoutSeconds: value, pollingIntervalSeconds: value });
      assert.equal(read1.requestTimeoutMs, timeoutMs);
      assert.equal(read1.pollingIntervalMs, pollMs);
    });
  }

  const accepted = [
    ['https://api.example.com/v1/', 'https://api.example.com/v1', 'https://api.example.com:443'],
    ['http://127.0.0.1:8787/training/v1', 'http://127.0.0.1:8787/training/v1', 'http://127.0.0.1:8787'],
    ['http://localhost:9/v1', 'http://localhost:9/v1', 'http://localhost:9'],
    ['http://[::1]:9/v1', 'http://[::1]:9/v1', 'http://[::1]:9'],
    ['  https://h.example/v1  ', 'https://h.example/v1', 'https://h.example:443'],
  ];
  for (const [value, url, origin] of accepted) {
    it(`address ${JSON.stringify(value)}: used as ${url}`, () => {
      assert.deepEqual(addresses.checkApiAddress(value), { ok: true, url, origin });
    });
  }

  const refused = [
    'http://10.0.0.1/v1',
    'http://127.0.0.1.evil.example/v1',
    'http://localhost.evil.example/v1',
    'http://[::ffff:10.0.0.1]/v1',
    'https://user:password@api.example.com/v1',
    'ftp://api.example.com/v1',
    'javascript:alert(1)',
    'file:///etc/passwd',
    'not an address',
  ];
  for (const value of refused) {
    it(`address ${JSON.stringify(value)}: refused, with the reason`, () => {
      const checked = addresses.checkApiAddress(value);
      assert.equal(checked.ok, false);
      const { settings: used, review } = read({ trainingApiUrl: value });
      assert.equal(used.trainingApiUrl, '');
      assert.match(review.refused[0]?.problem ?? '', /.+/);
    });
  }

  it("a workspace address on the origin of the user's own address: used without a question; another path of another origin waits", () => {
    const { settings: used, review } = read({ trainingApiUrl: 'https://mine.example/v1' }, { trainingApiUrl: 'https://mine.example:443/other/v1', inferenceApiUrl: 'https://theirs.example/v1' });
    assert.equal(used.trainingApiUrl, 'https://mine.example:443/other/v1');
    assert.equal(used.inferenceApiUrl, '');
    assert.deepEqual(
      review.pending.map((item) => item.approvalKey),
      ['origin:https://theirs.example:443'],
    );
  });

  it('an approval holds for the origin, whatever the path or the default port spelled out', () => {
    const { settings: used, review } = read({}, { inferenceApiUrl: 'https://theirs.example:443/inference/v1' }, ['origin:https://theirs.example:443']);
    assert.equal(used.inferenceApiUrl, 'https://theirs.example:443/inference/v1');
    assert.deepEqual(review.pending, []);
  });

  it('folder settings win over workspace settings, and both wait for approval', () => {
    const decision = policy.decideEndpoints(
      {
        trainingApiUrl: { defaultValue: '', globalValue: 'https://mine.example/v1', workspaceValue: 'https://a.example/v1', workspaceFolderValue: 'https://b.example/v1' },
        inferenceApiUrl: undefined,
        project: undefined,
      },
      () => false,
    );
    assert.equal(decision.trainingApiUrl, 'https://mine.example/v1');
    assert.deepEqual(
      decision.pending.map((item) => item.shown),
      ['https://b.example'],
    );
  });

  it('a project with a line break (a header injection): refused', () => {
    const { settings: used, review } = read({ project: 'team/project\r\nX-Injected: 1' });
    assert.equal(used.project, '');
    assert.equal(review.refused[0]?.setting, 'project');
  });
});
