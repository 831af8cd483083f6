import assert from 'node:assert/strict';
import { buildPageHtml, contentSecurityPolicy, webviewPages, type PageHtmlOptions, type WebviewPageName } from '../../../../src/platform/pages/host/pageHtml';

const pages = Object.keys(webviewPages) as WebviewPageName[];

function options(page: WebviewPageName, fields: Partial<PageHtmlOptions> = {}): PageHtmlOptions {
  return { page, title: 'A page', cspSource: 'https://file+.vscode-resource.example', mediaUri: (path) => `https://r.example/media/${path}`, nonce: 'abc123', ...fields };
}

describe('webview page documents', () => {
  it('allow nothing by default, scripts only with the nonce, styles only from the media folder, no images', () => {
    const policy = contentSecurityPolicy('https://file+.vscode-resource.example', 'abc123');
    assert.equal(policy, "default-src 'none'; script-src 'nonce-abc123'; style-src https://file+.vscode-resource.example; form-action 'none'; base-uri 'none'");
    assert.ok(!policy.includes('unsafe'));
    assert.ok(!policy.includes('img-src'));
  });

  for (const page of pages) {
    it(`${page}: carries that policy, loads exactly its own script with the nonce, and nothing inline`, () => {
      const html = buildPageHtml(options(page));
      const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)?.[1]?.replace(/&#39;/g, "'");
      assert.equal(policy, contentSecurityPolicy('https://file+.vscode-resource.example', 'abc123'));
      const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((match) => match[0]);
      assert.deepEqual(scripts, [`<script nonce="abc123" src="https://r.example/media/dist/${page}.js">`]);
      assert.deepEqual(
        [...html.matchAll(/<link\b[^>]*>/g)].map((match) => match[0]),
        ['<link rel="stylesheet" href="https://r.example/media/pageBase.css">', `<link rel="stylesheet" href="https://r.example/media/${page}.css">`],
      );
      assert.ok(!/<style\b/.test(html));
      assert.ok(!/\sstyle=/.test(html));
      assert.ok(!/\son[a-z]+=/.test(html));
      assert.match(html, /id="app"/);
    });
  }

  it('escapes what it puts in attributes and in the title', () => {
    const html = buildPageHtml(options('jobDetails', { title: '</title><script>alert(1)</script>', mediaUri: () => 'https://r.example/a"><script>alert(2)</script>' }));
    assert.ok(!html.includes('<script>alert'));
    assert.match(html, /<title>&lt;\/title&gt;&lt;script&gt;alert\(1\)&lt;\/script&gt;<\/title>/);
  });
});
