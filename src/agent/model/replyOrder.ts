/**
 * The order of an `@rlstudio` answer. When an answer is complete, VS Code's chat keeps open only
 * its last run of Markdown parts and folds every part before that run (progress lines, tool calls,
 * buttons, earlier Markdown) under "Completed N steps". So an answer does its work first, then
 * writes everything the person reads as one run of Markdown, then offers its buttons: nothing
 * after the last Markdown folds. No `vscode` import.
 */

/** The parts of VS Code's chat response stream an answer writes. */
export interface ReplyStream<Button> {
  markdown(text: string): void;
  progress(text: string): void;
  button(button: Button): void;
}

/** Buttons one answer offers at most. */
const maxButtons = 4;

export class OrderedReply<Button> {
  private answering = false;
  private readonly buttons: Button[] = [];

  constructor(private readonly stream: ReplyStream<Button>) {}

  /**
   * A work step: a progress line, or (without text) a tool call about to show in the chat. Only
   * before the answer began: a step after it would fold the whole answer above it.
   */
  step(progress?: string): void {
    if (this.answering) throw new Error(`a work step (${progress ?? 'a tool call'}) came after the answer began, which would fold the answer`);
    if (progress) this.stream.progress(progress);
  }

  /** Part of the answer, which from here on is all Markdown. */
  answer(markdown: string): void {
    if (!markdown) return;
    this.answering = true;
    this.stream.markdown(markdown);
  }

  /** A button, shown after the answer by `finish`. */
  offer(button: Button): void {
    if (this.buttons.length < maxButtons) this.buttons.push(button);
  }

  /** The buttons offered, after the answer's last Markdown. */
  finish(): void {
    for (const button of this.buttons.splice(0)) this.stream.button(button);
  }
}
