/** Long texts as the pages show them: the same folding on every page (counts are platform/kit/format's). */
import type { DiffSpan } from '../../kit/wordDiff';
import { formatCount } from '../../kit/format';
import { button, h } from './dom';

/**
 * A long text shows its first `foldChars` characters and a button for the rest, so a page never
 * lays out megabytes it was not asked for. Always text, never markup.
 */
export function foldedText(content: string, options: { className: string; foldChars: number; title: string }): HTMLElement {
  const body = h('div', { class: options.className });
  if (content.length <= options.foldChars) {
    body.textContent = content;
    return body;
  }
  const text = document.createTextNode(content.slice(0, options.foldChars));
  const more = button(
    `Show all ${formatCount(content.length)} characters`,
    () => {
      text.data = content;
      more.remove();
    },
    { title: options.title, class: 'link-button' },
  );
  body.append(text, h('span', { class: 'muted' }, '… '), more);
  return body;
}

/** A word diff against a chosen text: added words highlighted, removed ones struck through. */
export function diffText(spans: readonly DiffSpan[], options: { className: string; title: string }): HTMLElement {
  const body = h('div', { class: `${options.className} diff`, title: options.title });
  for (const span of spans) {
    if (span.kind === 'added') body.append(h('ins', { class: 'diff-added' }, span.text));
    else if (span.kind === 'removed') body.append(h('del', { class: 'diff-removed' }, span.text));
    else body.append(span.text);
  }
  return body;
}
