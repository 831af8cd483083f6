import type { MarkdownRenderer } from './markdownRenderer';
import { BlockScanner } from './markdownBlocks';

/** Beyond this many characters the open block is shown as plain text until it closes. */
const plainTailThreshold = 16_000;
/**
 * A single block longer than this stays plain text even when the answer ends: rendering a
 * megabyte-long paragraph as Markdown would freeze the panel for a long moment, for no gain.
 */
const markdownBlockLimit = 200_000;

/**
 * The body of one answer. Finished blocks are rendered once and never touched again; each update
 * re-renders only the open last block, so the work per frame stays small however long the answer
 * grows. Two cases avoid even that: an open code fence gets its new text appended to a text node,
 * and an open block longer than `plainTailThreshold` (a huge single line) is shown as appended plain
 * text until a block boundary or the end of the answer.
 */
export class StreamingMarkdownView {
  private readonly scanner = new BlockScanner();
  private frozenUpTo = 0;
  private text = '';
  private tail: HTMLElement;
  /** Set while the tail is shown incrementally: the text node and how much text it holds. */
  private appendTarget: { node: Text; from: number; kind: 'fence' | 'plain' } | undefined;

  constructor(
    readonly element: HTMLElement,
    private readonly renderer: MarkdownRenderer,
  ) {
    element.classList.add('markdown-body');
    this.tail = this.newTail();
  }

  get renderedLength(): number {
    return this.text.length;
  }

  /** Shows `text` (normally the previous text plus what streamed in since). */
  update(text: string): void {
    if (text === this.text) return;
    if (!text.startsWith(this.text)) this.clear();
    this.text = text;
    const cut = this.scanner.update(text);
    if (cut > this.frozenUpTo) {
      this.freeze(text.slice(this.frozenUpTo, cut));
      this.frozenUpTo = cut;
    }
    this.renderTail(false);
  }

  /** The answer is complete: the open block is rendered as Markdown whatever its kind. */
  finish(text: string): void {
    this.update(text);
    this.renderTail(true);
  }

  private clear(): void {
    this.scanner.reset();
    this.frozenUpTo = 0;
    this.text = '';
    this.appendTarget = undefined;
    this.element.replaceChildren();
    this.tail = this.newTail();
  }

  private newTail(): HTMLElement {
    const tail = document.createElement('div');
    tail.className = 'md-block md-tail';
    this.element.append(tail);
    return tail;
  }

  /** Turns the current tail element into a frozen block with the given text. */
  private freeze(blockText: string): void {
    this.tail.classList.remove('md-tail');
    if (blockText.length > markdownBlockLimit) this.tail.replaceChildren(plainParagraph(blockText));
    else this.tail.replaceChildren(this.renderer.render(blockText));
    this.appendTarget = undefined;
    this.tail = this.newTail();
  }

  private renderTail(final: boolean): void {
    const tailText = this.text.slice(this.frozenUpTo);
    const fenceStart = this.scanner.openFenceStart;
    if (!final && fenceStart === this.frozenUpTo && tailText.length > 0) {
      this.appendIncrementally(tailText, 'fence');
      return;
    }
    if ((!final && tailText.length > plainTailThreshold) || tailText.length > markdownBlockLimit) {
      this.appendIncrementally(tailText, 'plain');
      return;
    }
    this.appendTarget = undefined;
    this.tail.replaceChildren(tailText ? this.renderer.render(tailText) : '');
  }

  /**
   * Shows an open code fence as a code block whose text grows by appending, or an overlong open
   * block as growing plain text: O(new text) per update instead of O(block).
   */
  private appendIncrementally(tailText: string, kind: 'fence' | 'plain'): void {
    if (!this.appendTarget || this.appendTarget.kind !== kind) {
      const node = document.createTextNode('');
      if (kind === 'fence') {
        // The fence line itself is still arriving: wait for its info string before building.
        const firstLineEnd = tailText.indexOf('\n');
        if (firstLineEnd < 0) return;
        const info =
          tailText
            .slice(0, firstLineEnd)
            .replace(/^[`~]+/, '')
            .trim()
            .split(/\s+/)[0] ?? '';
        this.tail.replaceChildren(streamingCodeBlock(info, node));
        this.appendTarget = { node, from: firstLineEnd + 1, kind };
      } else {
        const paragraph = document.createElement('p');
        paragraph.className = 'plain-tail';
        paragraph.append(node);
        this.tail.replaceChildren(paragraph);
        this.appendTarget = { node, from: 0, kind };
      }
    }
    const target = this.appendTarget;
    const wanted = tailText.slice(target.from);
    const have = target.node.data.length;
    if (wanted.length > have) target.node.appendData(wanted.slice(have));
    else if (wanted.length < have) target.node.data = wanted;
  }
}

function streamingCodeBlock(language: string, code: Text): HTMLElement {
  const block = document.createElement('div');
  block.className = 'code-block streaming';
  const toolbar = document.createElement('div');
  toolbar.className = 'code-toolbar';
  const label = document.createElement('span');
  label.className = 'code-language';
  label.textContent = language;
  toolbar.append(label);
  const pre = document.createElement('pre');
  const codeElement = document.createElement('code');
  codeElement.append(code);
  pre.append(codeElement);
  block.append(toolbar, pre);
  return block;
}

function plainParagraph(text: string): HTMLElement {
  const paragraph = document.createElement('p');
  paragraph.className = 'plain-tail';
  paragraph.textContent = text;
  return paragraph;
}
