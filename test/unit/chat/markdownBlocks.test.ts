import assert from 'node:assert/strict';
import fc from 'fast-check';
import MarkdownIt from 'markdown-it';
import { BlockScanner } from '../../../src/chat/page/markdownBlocks';

const md = new MarkdownIt({ html: false, linkify: true });

function cutOf(text: string): number {
  return new BlockScanner().update(text);
}

/** Feeds `text` in the given pieces and returns every cut seen. */
function cutsWhileStreaming(text: string, sizes: number[]): number[] {
  const scanner = new BlockScanner();
  const cuts: number[] = [];
  let end = 0;
  for (const size of sizes) {
    end = Math.min(text.length, end + size);
    cuts.push(scanner.update(text.slice(0, end)));
  }
  cuts.push(scanner.update(text));
  return cuts;
}

const word = fc.stringMatching(/^[a-z]{1,8}$/);
const line = fc.array(word, { minLength: 1, maxLength: 8 }).map((words) => words.join(' '));
/** Top-level blocks whose rendering does not depend on their neighbours. */
const block = fc.oneof(
  line,
  fc.tuple(fc.integer({ min: 1, max: 4 }), line).map(([level, text]) => `${'#'.repeat(level)} ${text}`),
  fc.array(line, { minLength: 1, maxLength: 4 }).map((lines) => lines.join('\n')),
  fc.array(fc.oneof(line, fc.constant('')), { minLength: 1, maxLength: 5 }).map((lines) => `\`\`\`py\n${lines.join('\n')}\n\`\`\``),
  fc.array(line, { minLength: 1, maxLength: 3 }).map((lines) => `~~~~\n${lines.join('\n\n')}\n~~~~`),
  fc.array(line, { minLength: 1, maxLength: 3 }).map((lines) => lines.map((text) => `- ${text}`).join('\n')),
  fc.array(line, { minLength: 1, maxLength: 3 }).map((lines) => lines.map((text) => `> ${text}`).join('\n')),
  fc.tuple(word, word).map(([a, b]) => `| ${a} | ${b} |\n|---|--:|\n| ${b} | ${a} |`),
  fc.constant('---'),
);
const document = fc.array(block, { minLength: 1, maxLength: 12 }).map((blocks) => blocks.join('\n\n') + '\n');

describe('Markdown block boundaries for streaming', () => {
  it('cuts after a blank line before a new top-level block', () => {
    assert.equal(cutOf('one\n\ntwo'), 5);
    assert.equal(cutOf('one\n\n  indented'), 0, 'an indented line may continue a list item');
    assert.equal(cutOf('one\ntwo\n'), 0);
    assert.equal(cutOf('- a\n\n  more of a\n\nnext'), 18);
  });

  it('never cuts inside a fence, cuts at its opening and after its closing line', () => {
    const text = 'intro:\n```js\nconst a = 1;\n\nconst b = 2;\n```\nafter';
    const scanner = new BlockScanner();
    assert.equal(scanner.update(text.slice(0, 20)), 7, 'the fence opening is a cut');
    assert.equal(scanner.openFenceStart, 7);
    assert.equal(scanner.update(text.slice(0, 40)), 7, 'a blank line inside the fence is not');
    assert.equal(scanner.update(text), text.indexOf('after'));
    assert.equal(scanner.openFenceStart, undefined);
  });

  it('closes a fence only with the same marker, at least as long', () => {
    assert.equal(new BlockScanner().update('````\n```\n\nstill code\n'), 0);
    const scanner = new BlockScanner();
    scanner.update('~~~\n```\n\nstill\n');
    assert.equal(scanner.openFenceStart, 0);
    scanner.update('~~~\n```\n\nstill\n~~~~\n');
    assert.equal(scanner.openFenceStart, undefined);
  });

  it('does not take inline code for a fence', () => {
    const scanner = new BlockScanner();
    scanner.update('```not a fence``` text\n\nnext');
    assert.equal(scanner.openFenceStart, undefined);
  });

  it('starts over when the text is replaced rather than extended', () => {
    const scanner = new BlockScanner();
    assert.equal(scanner.update('aaa\n\nbbb'), 5);
    assert.equal(scanner.update('x\n\ny'), 3);
  });

  it('gives the same cuts however the text is split into chunks, and they only move forward', () => {
    fc.assert(
      fc.property(document, fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 200 }), (text, sizes) => {
        const cuts = cutsWhileStreaming(text, sizes);
        for (let i = 1; i < cuts.length; i++) assert.ok(cuts[i]! >= cuts[i - 1]!, 'cuts move forward');
        assert.equal(cuts.at(-1), cutOf(text));
      }),
      { numRuns: 300 },
    );
  });

  it('renders the pieces before and after any cut exactly like the whole text', () => {
    fc.assert(
      fc.property(document, fc.array(fc.integer({ min: 1, max: 60 }), { minLength: 1, maxLength: 100 }), (text, sizes) => {
        const scanner = new BlockScanner();
        let end = 0;
        const cuts = new Set<number>();
        for (const size of sizes) {
          end = Math.min(text.length, end + size);
          cuts.add(scanner.update(text.slice(0, end)));
        }
        cuts.add(scanner.update(text));
        const pieces: string[] = [];
        let start = 0;
        for (const cut of [...cuts].sort((a, b) => a - b)) {
          if (cut <= start) continue;
          assert.ok(cut === 0 || text[cut - 1] === '\n', 'a cut is at the start of a line');
          pieces.push(text.slice(start, cut));
          start = cut;
        }
        pieces.push(text.slice(start));
        assert.equal(pieces.map((piece) => md.render(piece)).join(''), md.render(text));
      }),
      { numRuns: 300 },
    );
  });
});
