import assert from 'node:assert/strict';
import { buildPanelHtml, contentSecurityPolicy, createNonce } from '../../../src/vscode/webviews/pageHtml';

describe('chat panel document', () => {
  const options = { cspSource: 'https://file+.vscode-resource.example', scriptUri: 'https://r.example/media/dist/chat.js', styleUri: 'https://r.example/media/chat.css', nonce: 'abc123' };

  it('allows nothing by default, scripts only with the nonce, styles only from the media folder, no images', () => {
    const policy = contentSecurityPolicy(options.cspSource, options.nonce);
    assert.equal(policy, "default-src 'none'; script-src 'nonce-abc123'; style-src https://file+.vscode-resource.example; form-action 'none'; base-uri 'none'");
    assert.ok(!policy.includes('unsafe'));
    assert.ok(!policy.includes('img-src'));
  });

  it('loads exactly one script, with the nonce, and no inline script or style', () => {
    const html = buildPanelHtml(options);
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((match) => match[0]);
    assert.deepEqual(scripts, ['<script nonce="abc123" src="https://r.example/media/dist/chat.js">']);
    assert.ok(html.includes('</script>'));
    assert.ok(!/<style\b/.test(html));
    assert.ok(!/\sstyle=/.test(html));
    assert.ok(!/\son[a-z]+=/.test(html));
    assert.match(html, /<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;|<meta http-equiv="Content-Security-Policy" content="default-src 'none'/);
  });

  it('escapes what it puts in attributes', () => {
    const html = buildPanelHtml({ ...options, scriptUri: 'https://r.example/a"><script>alert(1)</script>' });
    assert.ok(!html.includes('"><script>alert(1)'));
  });

  it('makes a fresh, long nonce every time', () => {
    const nonces = new Set(Array.from({ length: 200 }, () => createNonce()));
    assert.equal(nonces.size, 200);
    for (const nonce of nonces) assert.match(nonce, /^[A-Za-z0-9]{32}$/);
  });
});
