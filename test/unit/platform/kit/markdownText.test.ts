import assert from 'node:assert/strict';
import MarkdownIt from 'markdown-it';
import { codeBlock, codeFence, codeText, escapeMarkdown, inlineCode } from '../../../../src/platform/kit/markdownText';

// HTML and linkify on: the most a renderer could make of the text.
const markdown = new MarkdownIt({ html: true, linkify: true });

describe('Markdown text', () => {
  const hostile = [
    '[click](command:workbench.action.terminal.new)',
    '![x](https://attacker.example/pixel.png)',
    '<img src=x onerror=alert(1)>',
    '**bold** _em_ `code` ~~strike~~ &amp; $(alert)',
    'line one\n# heading\r\n- item\u2028> quote',
    'https://attacker.example/autolink',
  ];

  it('escapeMarkdown: server text renders as the same characters, one line, with no link, image, tag or emphasis', () => {
    for (const text of hostile) {
      const html = markdown.renderInline(escapeMarkdown(text));
      assert.doesNotMatch(html, /<(a|img|strong|em|code|s|h1|li|blockquote)\b/, html);
      assert.doesNotMatch(escapeMarkdown(text), /[\r\n\u2028]/);
      assert.ok(!/\$\(/.test(escapeMarkdown(text)), 'no theme icon can start');
    }
  });

  it('inlineCode: any backticks are shown inside the span, and an empty text is named', () => {
    for (const text of ['plain', 'a`b', '``x``', '`', 'x`', '```fence```']) {
      const html = markdown.renderInline(inlineCode(text));
      assert.equal(html, `<code>${markdown.utils.escapeHtml(text)}</code>`, text);
    }
    assert.equal(inlineCode(''), '*(blank)*');
  });

  it('codeText: plain ids as code, anything else escaped', () => {
    assert.equal(codeText('0f8fad5b-d9cb-469f-a165-70867728950e'), '`0f8fad5b-d9cb-469f-a165-70867728950e`');
    assert.equal(codeText('wandb-artifact:///e/p/n:step3'), '`wandb-artifact:///e/p/n:step3`');
    assert.equal(codeText('a b'), 'a b');
    assert.equal(codeText('[x](y)'), '\\[x\\]\\(y\\)');
    assert.equal(codeText('x'.repeat(201)), 'x'.repeat(201), 'too long for code: shown escaped');
  });

  it('codeFence: at least three backticks, and longer than any run in the text', () => {
    assert.equal(codeFence('no ticks'), '```');
    assert.equal(codeFence('``'), '```');
    assert.equal(codeFence('a ```` b'), '`````');
    assert.equal(codeFence('`'.repeat(100_000)).length, 100_001);
  });

  it('codeBlock: the text cannot close the block, and it is cut to the bound given', () => {
    const text = 'before\n```\n[link](command:x)\n```\nafter';
    const html = markdown.render(codeBlock(text, 'json'));
    assert.equal(html, `<pre><code class="language-json">${markdown.utils.escapeHtml(text)}\n</code></pre>\n`);
    assert.equal(codeBlock('x', 'js; alert(1)').split('\n')[1], '```', 'a language that is not a plain word is dropped');
    const cut = codeBlock('y'.repeat(10_000), '', 100);
    assert.ok(cut.length < 200, `${cut.length} characters`);
    assert.match(cut, /\n…\n```\n$/);
  });
});
