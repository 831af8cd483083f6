import { dialogs } from '../unit/platform/client/support/fakeVscode';
import assert from 'node:assert/strict';
import { closeRawConnections, sendRaw } from '../../src/platform/client';
import { Dialogs } from '../../src/platform/host/dialogs';
import type { Services } from '../../src/platform/host/services';
import { RedactingLog } from '../../src/platform/host/log';
import type { ReceiverController } from '../../src/webhooks/host/receiverController';
import { ReportDocuments } from '../../src/webhooks/host/reportDocuments';
import { registerWebhookCommands } from '../../src/webhooks/host/webhookCommands';
import { WebhooksTreeProvider } from '../../src/webhooks/host/webhooksTree';
import { WebhookStore } from '../../src/webhooks/host/webhookStore';
import { endpointForDisplay } from '../../src/webhooks/model/endpoint';
import { formatTestReport } from '../../src/webhooks/model/report';
import { sendSecrets, sendTest, testTimeoutMs, type TestSendResult } from '../../src/webhooks/model/send';
import { memento, secretStorage } from '../unit/platform/client/support/fakeVscode';
import { base64Pieces } from '../unit/platform/client/support/keys';
import { basicOf, hostileServer, leakOf } from './support/redactionHostile';

const token = 'whk/Tq7Ln2Vz9Xp4Rc8Ms3Kd+Qw6';
const secret = 'sig-Hb6Yw1Qe5Nj0Uf2Ag9Lo/Ze3';
const pathToken = 'q8Zr4WvXn2Lp7Ks9Tb3Yd6Hm';
const password = 'pa55-w0rd-Xy7Qz';
const cookies = ['Cv9Tr2Mx8Lp1Qa', 'Yt5Gh3Jk7Nb4Ws'];

const unicodeEscaped = (text: string): string => [...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
const slashEscaped = (text: string): string => text.replace(/\//g, '\\/');

/**
 * What the user reads after "Send test", built the way the command builds it: the report with the
 * webhook's secrets, shown through the report documents, and the log line.
 */
async function whatPeopleSee(url: string, result: TestSendResult): Promise<Record<string, string>> {
  const credentials = { accessToken: token, secret };
  const hidden = sendSecrets(url, credentials);
  const report = formatTestReport(result, { secrets: hidden, notes: ['Payload: the generic sample payload.'] });
  const reports = new ReportDocuments();
  const uri = await reports.show('webhook-test-deploy', report, hidden);
  const log = new RedactingLog('RL Studio');
  for (const value of hidden) log.addSecret(value);
  log.info(`webhook test to deploy (${endpointForDisplay(url)}): ${result.response ? result.response.status : result.failure?.message}`);
  return {
    'report document': reports.provideTextDocumentContent(uri as never),
    'failure message': result.failure?.message ?? '',
    advice: result.advice.join('\n'),
    log: log.recentLines().join('\n'),
  };
}

function assertNothingLeaks(seen: Record<string, string>): void {
  for (const value of [token, secret, pathToken, password, ...base64Pieces(token, false), ...base64Pieces(`hookuser:${password}`, false)]) {
    assert.equal(leakOf(seen, value), undefined);
  }
  for (const cookie of cookies) {
    for (const [where, text] of Object.entries(seen)) assert.ok(!text.includes(cookie), `${where} shows the cookie value ${cookie}`);
  }
}

describe('fault: a webhook endpoint that reflects what it was sent', function () {
  this.timeout(20_000);
  after(() => closeRawConnections());

  it('reflects Authorization in headers, in \\/- and \\u-escaped bodies, and sets cookies: the report shows none of it', async () => {
    const server = await hostileServer((request, response) => {
      const authorization = String(request.headers.authorization);
      const body = [
        `{"auth":"${slashEscaped(authorization)}"`,
        `"unicode":"${unicodeEscaped(authorization)}"`,
        `"secret":"${unicodeEscaped(secret)}"`,
        `"path":"${slashEscaped(request.url)}"`,
        `"cookie":"${cookies[0]}"`,
        `"basic":"Basic ${basicOf('hookuser', token)}"`,
        `"token_only":"${slashEscaped(token)}"}`,
      ].join(',');
      response.writeHead(403, {
        'content-type': 'application/json',
        'x-echo-authorization': authorization,
        authorization,
        'www-authenticate': `Bearer realm="hooks", error="invalid_token", token="${token}"`,
        'set-cookie': [`session=${cookies[0]}; Path=/; HttpOnly`, `csrf=${cookies[1]}; Secure`],
        'x-echo-path': request.url,
        location: `https://login.example/?access_token=${encodeURIComponent(token)}&next=${encodeURIComponent(request.url)}`,
      });
      response.end(body);
    });
    const url = `http://hookuser:${password}@${server.origin.slice('http://'.length)}/services/T0ABCDEF1/B0GHIJKL2/${pathToken}`;
    try {
      const result = await sendTest('{"text": "deploy ${ACCESS_TOKEN}"}', { name: 'deploy', url }, { accessToken: token, secret }, sendRaw, { timeoutMs: 5_000 });
      assert.equal(server.requests[0].headers.authorization, `Bearer ${token}`, 'the endpoint did receive the token');
      assert.equal(server.requests[0].url, `/services/T0ABCDEF1/B0GHIJKL2/${pathToken}`);
      const seen = await whatPeopleSee(url, result);
      assertNothingLeaks(seen);
      const report = seen['report document'];
      assert.match(report, /\*\*Failed\*\*: 403 Forbidden/);
      assert.match(report, /POST http:\/\/127\.0\.0\.1:\d+\/services\/…/);
      assert.match(report, /"cookie": "\[redacted\]"/, 'the body is still shown, pretty-printed');
      assert.match(report, /set-cookie: \[redacted\]/);
    } finally {
      await server.close();
    }
  });

  it('an endpoint answering with credentials under invented header names (a GitHub token, a JWT), echoed in its body: the report shows neither', async () => {
    const pat = 'ghp_UpstreamL00k1ngT0kenV4lue0123456789ab';
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJob29rcyIsImV4cCI6MTg5MzQ1NjAwMH0.dGhpcy1pcy10aGUtc2lnbmF0dXJl';
    const server = await hostileServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'x-upstream-handle': pat, 'x-trace-blob': jwt, 'x-request-id': '72d3162e-cc78-11e3-81ab-4c9367dc0958' });
      response.end(JSON.stringify({ ok: true, echoed: `${pat} ${jwt}` }));
    });
    try {
      const result = await sendTest('{}', { name: 'deploy', url: `${server.origin}/hooks` }, {}, sendRaw, { timeoutMs: 5_000 });
      const report = formatTestReport(result);
      for (const value of [pat, jwt]) assert.ok(!report.includes(value.slice(4, 20)), `${value} shows in:\n${report}`);
      assert.match(report, /x-upstream-handle: \[redacted\]/);
      assert.match(report, /x-request-id: 72d3162e-cc78-11e3-81ab-4c9367dc0958/, 'an identifier stays readable');
    } finally {
      await server.close();
    }
  });

  it('a URL with a path token and userinfo where nothing listens: the failure, advice, report and log name the origin only', async () => {
    const server = await hostileServer(() => undefined);
    const origin = server.origin;
    await server.close();
    const url = `${origin.replace('http://', `http://hookuser:${password}@`)}/api/webhooks/123456789012345678/${pathToken}?sig=${encodeURIComponent(secret)}`;
    const result = await sendTest('{}', { name: 'deploy', url }, { accessToken: token, secret }, sendRaw, { timeoutMs: 5_000 });
    assert.equal(result.ok, false);
    assert.match(result.failure!.message, /refused|connect/);
    const seen = await whatPeopleSee(url, result);
    assertNothingLeaks(seen);
    assert.match(seen['report document'], /POST http:\/\/127\.0\.0\.1:\d+\/api\/…\?…/);
  });

  it('a test timeout of 0 in the settings against an endpoint that never answers: the send gives up after 1 s', async () => {
    const server = await hostileServer(() => undefined);
    try {
      const result = await sendTest('{}', { name: 'deploy', url: `${server.origin}/hooks` }, {}, sendRaw, { timeoutMs: testTimeoutMs(0) });
      assert.equal(result.failure?.kind, 'timeout', JSON.stringify(result.failure));
      assert.match(result.failure!.message, /timed out after 1 s/, 'it waited the shortest allowed time, not none');
      assert.match(result.advice.join(' '), /did not answer in time/);
    } finally {
      await server.close();
    }
  });
});

describe('fault: webhook URLs that carry tokens, wherever they are shown', () => {
  const urls = [
    `https://hooks.example.com/services/T0ABCDEF1/B0GHIJKL2/${pathToken}`,
    `https://discord.example/api/webhooks/123456789012345678/${pathToken}`,
    `https://hookuser:${password}@example.com/hooks/deploy?sig=${pathToken}`,
    `https://example.com/${pathToken}/hook`,
  ];

  for (const url of urls) {
    it(`${url.replace(pathToken, '<token>').replace(password, '<password>')}: the tree, tooltips, pickers and confirmations show neither path token nor userinfo`, async () => {
      dialogs.reset();
      const store = new WebhookStore(memento() as never, secretStorage() as never);
      const webhook = await store.add({ name: 'deploy', url }, {});
      const receiver = { onDidChange: () => ({ dispose: () => undefined }), running: undefined } as unknown as ReceiverController;
      const tree = new WebhooksTreeProvider(store, receiver);
      const item = tree.getTreeItem(tree.getChildren()[0]);

      const handlers = new Map<string, (...args: unknown[]) => Promise<unknown>>();
      registerWebhookCommands({ testMode: false, dialogs: new Dialogs(false), registerCommand: (id: string, handler: never) => handlers.set(id, handler) } as unknown as Services, store);
      await handlers.get('rlStudio.webhook.copyUrl')!('not a node');
      await handlers.get('rlStudio.webhook.edit')!(webhook.id);
      await handlers.get('rlStudio.webhook.remove')!(webhook.id, true);
      assert.equal(dialogs.shown.length, 3, 'a picker for copy, the edit menu, the removal confirmation');

      const seen = {
        'tree description': String(item.description),
        tooltip: JSON.stringify(item.tooltip),
        'stored state': JSON.stringify(store.list()),
        dialogs: JSON.stringify(dialogs.shown),
      };
      for (const value of [pathToken, password]) assert.equal(leakOf(seen, value), undefined);
      assert.ok(store.get(webhook.id), 'the removal was not confirmed');
    });
  }
});
