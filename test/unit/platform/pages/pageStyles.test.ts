/**
 * The pages' stylesheets stay one base and four page sheets: every page links media/pageBase.css
 * before its own sheet, a page sheet never restates what the base gives, and no two page sheets
 * carry the same rule, so shared looks go to the base instead of growing back as copies.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildPageHtml, pageBaseStyle, webviewPages, type WebviewPageName } from '../../../../src/platform/pages/host/pageHtml';

const mediaDir = join(__dirname, '..', '..', '..', '..', '..', 'media');
const pages = Object.keys(webviewPages) as WebviewPageName[];

/** One rule of a sheet: the @media it sits in ('' at the top), its selectors and its declarations, whitespace normalised. */
interface CssRule {
  media: string;
  selectors: string[];
  declarations: string[];
}

const squeeze = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Splits at `separator` outside parentheses (`input:where(:not(a, b))` is one selector). */
function splitOutside(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')') depth--;
    else if (text[i] === separator && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map(squeeze).filter((part) => part !== '');
}

/** The rules of a plain sheet: style rules, at the top or inside @media blocks (no other nesting). */
function parseRules(css: string): CssRule[] {
  const rules: CssRule[] = [];
  const text = css.replace(/\/\*[\s\S]*?\*\//g, '');
  const blocks = /([^{}]+)\{([^{}]*)\}|([^{}]*@media[^{}]+)\{|\}/g;
  let media = '';
  for (let match = blocks.exec(text); match; match = blocks.exec(text)) {
    if (match[3] !== undefined) media = squeeze(match[3]);
    else if (match[1] !== undefined) rules.push({ media, selectors: splitOutside(match[1], ','), declarations: splitOutside(match[2]!, ';').map((d) => d.replace(/\s*:\s*/, ': ')) });
    else media = '';
  }
  return rules;
}

function sheet(name: string): CssRule[] {
  return parseRules(readFileSync(join(mediaDir, name), 'utf8'));
}

/** Selectors and declarations in a fixed order, so a copy with its lines shuffled is still the same rule. */
const ruleKey = (rule: CssRule) => `${within(rule)}${[...rule.selectors].sort().join(', ')} { ${[...rule.declarations].sort().join('; ')} }`;

/** `@media (max-width: 520px) ` before a rule inside that block, nothing before a rule at the top. */
const within = (rule: CssRule) => (rule.media ? `${rule.media} ` : '');

/** Rules of a page sheet that repeat a base rule whole, and declarations it gives a selector the base already gives the same way. */
function restatedFromBase(base: CssRule[], page: CssRule[]): string[] {
  const baseKeys = new Set(base.map(ruleKey));
  const baseDeclarations = new Set(base.flatMap((rule) => rule.selectors.flatMap((selector) => rule.declarations.map((d) => `${within(rule)}${selector} { ${d} }`))));
  const found = page.filter((rule) => baseKeys.has(ruleKey(rule))).map(ruleKey);
  for (const rule of page) {
    for (const selector of rule.selectors)
      for (const d of rule.declarations) {
        const declaration = `${within(rule)}${selector} { ${d} }`;
        if (baseDeclarations.has(declaration)) found.push(declaration);
      }
  }
  return found;
}

/** Rules of more than two declarations that appear in more than one of the sheets, each with the sheets it is in. */
function sharedRules(sheets: Record<string, CssRule[]>): string[] {
  const where = new Map<string, Set<string>>();
  for (const [name, rules] of Object.entries(sheets)) {
    for (const rule of rules.filter((each) => each.declarations.length > 2)) where.set(ruleKey(rule), (where.get(ruleKey(rule)) ?? new Set()).add(name));
  }
  return [...where].filter(([, names]) => names.size > 1).map(([key, names]) => `${[...names].join(' and ')}: ${key}`);
}

describe('page stylesheets', () => {
  for (const page of pages) {
    it(`${page}: links pageBase.css first, then its own sheet, and no other`, () => {
      const html = buildPageHtml({ page, title: 'A page', cspSource: 'https://r.example', mediaUri: (path) => `https://r.example/media/${path}`, nonce: 'abc123' });
      const links = [...html.matchAll(/<link rel="stylesheet" href="https:\/\/r\.example\/media\/([^"]+)">/g)].map((match) => match[1]);
      assert.deepEqual(links, [pageBaseStyle, webviewPages[page].style]);
      assert.notEqual(webviewPages[page].style, pageBaseStyle);
    });
  }

  it('reads rules at the top and inside @media blocks, whatever the order of their lines', () => {
    const rules = parseRules('/* a { b: c } */\na,\nb:where(:not(x, y)) {\n  color: red;\n  margin:0\n}\n@media (max-width: 10px) {\n  a { color: red; }\n}\nc { }');
    assert.deepEqual(rules, [
      { media: '', selectors: ['a', 'b:where(:not(x, y))'], declarations: ['color: red', 'margin: 0'] },
      { media: '@media (max-width: 10px)', selectors: ['a'], declarations: ['color: red'] },
      { media: '', selectors: ['c'], declarations: [] },
    ]);
    assert.equal(ruleKey(parseRules('a, b { x: 1; y: 2 }')[0]!), ruleKey(parseRules('b,a{y:2;x:1}')[0]!));
  });

  it('finds a base rule copied into a page, a base declaration restated, and a rule two pages share', () => {
    const base = parseRules('body { color: red; margin: 0 }');
    assert.deepEqual(restatedFromBase(base, parseRules('body { margin: 0; color: red }')), ['body { color: red; margin: 0 }', 'body { margin: 0 }', 'body { color: red }']);
    assert.deepEqual(restatedFromBase(base, parseRules('html, body { margin: 0; height: 100% }')), ['body { margin: 0 }']);
    assert.deepEqual(restatedFromBase(base, parseRules('body { margin: 4px } @media (x) { body { margin: 0 } }')), []);
    const copy = '.card { a: 1; b: 2; c: 3 }';
    assert.deepEqual(sharedRules({ one: parseRules(copy), two: parseRules(`@media (x) { ${copy} }`) }), []);
    assert.deepEqual(sharedRules({ one: parseRules(copy), two: parseRules('.card { c: 3; b: 2; a: 1 }'), three: parseRules('.card { a: 1; b: 2 }') }), ['one and two: .card { a: 1; b: 2; c: 3 }']);
  });

  it('no page sheet repeats a rule or a declaration of pageBase.css', () => {
    const base = sheet(pageBaseStyle);
    assert.ok(base.length > 20, 'the base sheet was read');
    for (const page of pages) assert.deepEqual(restatedFromBase(base, sheet(webviewPages[page].style)), [], `${webviewPages[page].style} restates the base`);
  });

  it('no two page sheets share a rule of more than two declarations', () => {
    const sheets = Object.fromEntries(pages.map((page) => [webviewPages[page].style, sheet(webviewPages[page].style)]));
    assert.deepEqual(sharedRules(sheets), []);
  });
});
