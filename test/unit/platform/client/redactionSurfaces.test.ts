import { outputLines } from './support/fakeVscode';
import assert from 'node:assert/strict';
import { describeAnswerError } from '../../../../src/chat/model/answerErrors';
import { appendUserTurn, createConversation } from '../../../../src/chat/model/conversation';
import { defaultSettings, type Conversation } from '../../../../src/chat/model/conversationTypes';
import { conversationToJson, conversationToMarkdown } from '../../../../src/chat/model/exportConversation';
import { selectionMessage } from '../../../../src/chat/model/selectionMessage';
import { RedactingLog } from '../../../../src/platform/host/log';
import { adviceForStatus } from '../../../../src/webhooks/model/advice';
import { endpointForDisplay, endpointSecrets } from '../../../../src/webhooks/model/endpoint';
import { formatTestReport } from '../../../../src/webhooks/model/report';
import { sendSecrets, testTimeoutMs, type TestSendResult } from '../../../../src/webhooks/model/send';
import { testEnv } from '../../chat/support';
import { survivingPiece } from './support/keys';

const key = 'sk-live-4f9Q2xVb7Lm0Zr8TyW3nKd6Hs1Pa5Jc9Ue2Gi7Ov0Bq';

describe('endpoint URLs as shown', () => {
  const cases: Array<[string, string]> = [
    ['https://hooks.example.com/services/T0ABCDEF1/B0GHIJKL2/q8Zr4WvXn2Lp7Ks9Tb3Yd6Hm', 'https://hooks.example.com/services/…'],
    ['https://alice:pa55word@example.com/hooks/deploy?token=abc#frag', 'https://example.com/hooks/…?…'],
    ['https://example.com/q8Zr4WvXn2Lp7Ks9Tb3Yd6Hm', 'https://example.com/…'],
    ['http://127.0.0.1:8080/', 'http://127.0.0.1:8080'],
    ['https://api.example.com/v1/webhooks', 'https://api.example.com/v1/…'],
    ['not a url', 'an address that is not a valid URL'],
  ];
  for (const [url, shown] of cases) {
    it(`${url} → ${shown}`, () => assert.equal(endpointForDisplay(url), shown));
  }

  it('hands the path token, userinfo and query values to redaction, not the origin', () => {
    const secrets = endpointSecrets('https://alice:pa55word@example.com/services/T0ABCDEF1/q8Zr4WvXn2Lp7Ks9?sig=Zm9vYmFy&x=1');
    assert.ok(secrets.includes('T0ABCDEF1/q8Zr4WvXn2Lp7Ks9'));
    assert.ok(secrets.includes('pa55word') && secrets.includes('alice') && secrets.includes('Zm9vYmFy'));
    assert.ok(!secrets.some((secret) => secret.includes('example.com')), 'the host stays readable in the log');
  });
});

describe('the test timeout setting', () => {
  it('is kept within 1 s and 600 s, whatever the settings file says', () => {
    assert.equal(testTimeoutMs(30), 30_000);
    assert.equal(testTimeoutMs(0), 1_000);
    assert.equal(testTimeoutMs(-5), 1_000);
    assert.equal(testTimeoutMs(1e9), 600_000);
    assert.equal(testTimeoutMs(Number.POSITIVE_INFINITY), 30_000);
    assert.equal(testTimeoutMs('9999'), 30_000);
    assert.equal(testTimeoutMs(undefined), 30_000);
    assert.equal(testTimeoutMs(0.5), 1_000);
  });
});

describe('the webhook test report', () => {
  const token = 'whk-Tq7Ln2Vz9Xp4Rc8Ms3Kd';
  const secret = 'sig-Hb6Yw1Qe5Nj0Uf2Ag9Lo';
  const url = 'https://user:pa55word@hooks.example.com/services/T0ABCDEF1/q8Zr4WvXn2Lp7Ks9Tb3Yd6Hm';

  function result(headers: Record<string, string | string[]>, body: string): TestSendResult {
    return {
      webhook: 'deploy',
      startedAt: 0,
      request: { endpoint: endpointForDisplay(url), method: 'POST', headers: { Authorization: 'Bearer ********' }, body: '{}', bodyBytes: 2 },
      response: { status: 401, headers, body: new TextEncoder().encode(body), ms: 3 },
      responseText: body,
      ok: false,
      advice: [],
    };
  }

  it('shows no piece of the token when the endpoint echoes it escaped (\\/ and \\u), after pretty-printing', () => {
    const escaped = [...token].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    const body = `{"seen":"Bearer ${token.replace(/-/g, '\\/')}","again":"${escaped}","secret":"${secret}"}`;
    const report = formatTestReport(result({ 'content-type': 'application/json' }, body), { secrets: sendSecrets(url, { accessToken: token, secret }) });
    assert.equal(survivingPiece(report, token), undefined, report);
    assert.equal(survivingPiece(report, secret), undefined, report);
    assert.match(report, /"again": "\[redacted\]"/, 'the body is still pretty-printed');
  });

  it('masks credential and cookie headers, and the cookie values wherever they appear', () => {
    const report = formatTestReport(
      result({ 'set-cookie': ['session=Cv9Tr2Mx8Lp1; Path=/', 'csrf=Yt5Gh3Jk7Nb4; Secure'], 'x-echo-authorization': `Bearer ${token}`, 'x-request-id': 'r-1' }, 'your session is Cv9Tr2Mx8Lp1'),
      { secrets: sendSecrets(url, { accessToken: token }) },
    );
    assert.doesNotMatch(report, /Cv9Tr2Mx8Lp1|Yt5Gh3Jk7Nb4/);
    assert.equal(survivingPiece(report, token), undefined);
    assert.match(report, /x-request-id: r-1/, 'other headers stay');
  });

  it('keeps the advice readable: redaction of the finished report does not eat its words', () => {
    for (const status of [302, 400, 401, 403, 404, 405, 413, 429, 500]) {
      const failed = { ...result({}, ''), advice: adviceForStatus(status) };
      const report = formatTestReport(failed, { secrets: sendSecrets(url, { accessToken: token }) });
      for (const line of adviceForStatus(status)) assert.ok(report.includes(`- ${line}`), line);
    }
  });

  it('shows the endpoint as origin and masked path, never userinfo or the path token', () => {
    const report = formatTestReport(result({}, ''), { secrets: sendSecrets(url, {}) });
    assert.match(report, /POST https:\/\/hooks\.example\.com\/services\/…/);
    assert.doesNotMatch(report, /pa55word|q8Zr4WvX|T0ABCDEF1/);
  });
});

describe('the log channel', () => {
  it('redacts after cutting a long line, so the piece of a key left at the cut is masked', () => {
    const log = new RedactingLog('test');
    log.addSecret(key);
    log.warn(`${'x'.repeat(7_980)} ${key} tail`);
    const line = log.recentLines().at(-1)!;
    assert.ok(line.length < 8_100, 'the line was cut');
    assert.equal(survivingPiece(line, key), undefined, line.slice(-60));
    assert.equal(survivingPiece(outputLines.at(-1)!, key), undefined);
  });

  it("writes one line an entry: a server's line break cannot start an entry of its own", () => {
    const log = new RedactingLog('test');
    log.warn('training job 7 failed: "oom\n2026-11-28 10:00:00.000 [info] signed in; the key was accepted\r\u2028x"');
    const line = log.recentLines().at(-1)!;
    assert.ok(!/[\n\r\u2028]/.test(line), line);
    assert.equal(line, '[warn] training job 7 failed: "oom\\n2026-11-28 10:00:00.000 [info] signed in; the key was accepted\\r\\u2028x"');
    assert.ok(!/[\n\r\u2028]/.test(outputLines.at(-1)!));
  });

  it('masks auth schemes it was not told about, in any case', () => {
    const log = new RedactingLog('test');
    log.info('echo: bearer Zq8Pw2Lm0Xc4 / BASIC dXNlcjpwYXNzd29yZA== / x-api-key: abc');
    assert.equal(log.recentLines().at(-1), '[info] echo: bearer [redacted] / BASIC [redacted] / x-api-key: [redacted]');
  });
});

describe('chat error text', () => {
  it('cuts to one line, then redacts: a key cut at character 400 leaves no piece', () => {
    const error = { kind: 'http', status: 500, message: `${'y'.repeat(360)} ${key} end` };
    const described = describeAnswerError(error, [key]);
    assert.equal(survivingPiece(described.message, key), undefined, described.message.slice(-80));
  });

  it('masks an echoed bearer token even without knowing the key', () => {
    assert.match(describeAnswerError(new Error('upstream said: Authorization: Bearer zzzzzz-123')).message, /Bearer \[redacted\]/);
  });
});

describe('conversation exports', () => {
  function conversation(answer: { content: string; reasoning?: string; errorMessage: string }): Conversation {
    const env = testEnv();
    const built = createConversation(env, defaultSettings('model-a'));
    const { answers } = appendUserTurn(built, `my key is ${key}`, env);
    Object.assign(answers[0]!, {
      content: answer.content,
      reasoning: answer.reasoning ?? '',
      status: 'error',
      error: { kind: 'http', message: answer.errorMessage, retryable: true },
    });
    return built;
  }

  it('Markdown: redacts the finished text', () => {
    const markdown = conversationToMarkdown(conversation({ content: 'ok', errorMessage: `rejected ${key.slice(0, 30)}…` }), new Date(0), [key]);
    assert.equal(survivingPiece(markdown, key), undefined, markdown);
    assert.match(markdown, /my key is \[redacted\]/);
  });

  it('JSON: redacts every value and stays valid JSON', () => {
    const json = conversationToJson(conversation({ content: `"${key}"\\`, errorMessage: `rejected ${key}` }), new Date(0), [key]);
    assert.equal(survivingPiece(json, key), undefined, json);
    assert.doesNotThrow(() => JSON.parse(json));
  });

  it('Markdown: reasoning with a million backtick runs exports without overflowing the stack', () => {
    const runs = '` '.repeat(1_000_000) + '```` x';
    const markdown = conversationToMarkdown(conversation({ content: 'ok', reasoning: runs, errorMessage: 'e' }), new Date(0));
    assert.ok(markdown.includes('`````text'), 'the fence is longer than the longest run inside');
    const selection = selectionMessage({ text: '``` '.repeat(300_000), languageId: 'ts', fileLabel: 'a.ts', startLine: 1, endLine: 2 });
    assert.ok(selection.startsWith('From `a.ts` (lines 1–2):\n\n````ts'));
  });
});
