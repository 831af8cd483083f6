/**
 * Finds where a growing Markdown text can be cut into blocks that will never change again, so a
 * streamed answer renders each finished block once and re-renders only its last, open block.
 *
 * A cut is safe at the start of a line that begins at column 0 after a blank line (a new top-level
 * block: text indented after a blank line may continue a list item, so it is never a cut; a list
 * item right after a list is not a cut either, since the two would make one loose list), at an
 * opening code fence at column 0 (a fence interrupts a paragraph), and right after a closing fence
 * at column 0. Nothing inside a fence is ever a cut. Rendering the pieces separately can differ from
 * one whole render only in cosmetics (a loose list rendered as two tight ones, a reference link
 * defined in a later block); it never moves text.
 *
 * The scanner is incremental: it reads each complete line once, so the cost per streamed chunk is
 * the size of the chunk, not of the answer.
 */
export class BlockScanner {
  private scanned = 0;
  private previousBlank = true;
  private fence: { char: string; length: number; start: number; column0: boolean } | undefined;
  private lastCut = 0;
  private text = '';
  /** Whether the last top-level block started with a list marker. */
  private previousBlockList = false;

  /** Feeds the whole text so far (it must extend the previous one); returns the last safe cut. */
  update(text: string): number {
    if (!text.startsWith(this.text)) this.reset();
    this.text = text;
    while (true) {
      const end = text.indexOf('\n', this.scanned);
      if (end < 0) break;
      this.readLine(this.scanned, text.slice(this.scanned, end));
      this.scanned = end + 1;
    }
    // The incomplete last line can still say that a new block starts here: only its first
    // character matters, and it cannot change any more.
    if (this.scanned < text.length && !this.fence && this.previousBlank && startsBlockAtColumn0(text.charCodeAt(this.scanned))) {
      // Until the line is complete, a line that may become a list item is not a cut after a list.
      if (!this.previousBlockList || !mayStartListItem(text.charCodeAt(this.scanned))) this.lastCut = Math.max(this.lastCut, this.scanned);
    }
    return this.lastCut;
  }

  /** Where the open fence starts when the text ends inside a column-0 code fence. */
  get openFenceStart(): number | undefined {
    return this.fence?.column0 ? this.fence.start : undefined;
  }

  get openFenceMarker(): string | undefined {
    return this.fence ? this.fence.char.repeat(this.fence.length) : undefined;
  }

  reset(): void {
    this.scanned = 0;
    this.previousBlank = true;
    this.fence = undefined;
    this.lastCut = 0;
    this.text = '';
    this.previousBlockList = false;
  }

  private readLine(start: number, line: string): void {
    const indent = line.length - line.trimStart().length;
    if (this.fence) {
      if (indent <= 3 && isClosingFence(line.trimStart(), this.fence.char, this.fence.length)) {
        const closesColumn0 = this.fence.column0;
        this.fence = undefined;
        this.previousBlank = false;
        if (closesColumn0) this.lastCut = Math.max(this.lastCut, start + line.length + 1);
      }
      return;
    }
    const opening = indent <= 3 ? openingFence(line.trimStart()) : undefined;
    if (opening) {
      this.fence = { ...opening, start, column0: indent === 0 };
      if (indent === 0) {
        this.lastCut = Math.max(this.lastCut, start);
        this.previousBlockList = false;
      }
      this.previousBlank = false;
      return;
    }
    const blank = line.trim() === '';
    if (!blank && this.previousBlank && indent === 0 && startsBlockAtColumn0(line.charCodeAt(0))) {
      const listItem = isListItem(line);
      if (!(listItem && this.previousBlockList)) this.lastCut = Math.max(this.lastCut, start);
      this.previousBlockList = listItem;
    }
    this.previousBlank = blank;
  }
}

function startsBlockAtColumn0(code: number): boolean {
  // Not a space, tab, or line break: text there is a new block, not a continuation.
  return code !== 32 && code !== 9 && code !== 10 && code !== 13 && !Number.isNaN(code);
}

function openingFence(trimmed: string): { char: string; length: number } | undefined {
  const match = /^(`{3,}|~{3,})(.*)$/.exec(trimmed);
  if (!match) return undefined;
  const marker = match[1]!;
  // A backtick fence's info string cannot contain a backtick (that would be inline code).
  if (marker[0] === '`' && match[2]!.includes('`')) return undefined;
  return { char: marker[0]!, length: marker.length };
}

function isClosingFence(trimmed: string, char: string, length: number): boolean {
  let run = 0;
  while (run < trimmed.length && trimmed[run] === char) run++;
  return run >= length && trimmed.slice(run).trim() === '';
}

function isListItem(line: string): boolean {
  return /^(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)/.test(line);
}

function mayStartListItem(code: number): boolean {
  // '-', '+', '*' or a digit.
  return code === 45 || code === 43 || code === 42 || (code >= 48 && code <= 57);
}
