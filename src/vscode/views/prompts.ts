import * as vscode from 'vscode';

/** A question the sidebar asked the user, as recorded for automation. */
export interface Question {
  kind: 'confirm' | 'pick' | 'input' | 'open';
  message: string;
  detail?: string;
  /** Labels of the offered choices (quick picks) or the confirming action. */
  choices?: string[];
}

/** An answer given in place of the user: a label to pick, text to type, true/false to confirm, undefined to cancel. */
export type ScriptedAnswer = string | boolean | undefined | vscode.Uri[] | ((question: Question) => string | boolean | undefined | vscode.Uri[]);

/**
 * Every dialog the sidebar shows goes through here. Normally it is VS Code's window; automation
 * (the extension's tests, scripted demos) can queue answers, so flows with modal confirmations and
 * quick picks run end to end without a person, and every question and message is recorded.
 */
export class Prompts {
  private readonly queued: ScriptedAnswer[] = [];
  /** Questions asked, oldest first (only kept while answers are scripted). */
  readonly asked: Question[] = [];
  /** Information and warning messages shown, oldest first (kept for automation). */
  readonly shown: string[] = [];

  /** Answers the next questions, in order, instead of showing them. */
  answerNext(...answers: ScriptedAnswer[]): void {
    this.queued.push(...answers);
  }

  /** Answers still waiting for their question. */
  pendingAnswers(): number {
    return this.queued.length;
  }

  /** A modal confirmation naming what will happen; true only when the action button is chosen. */
  async confirm(message: string, detail: string, action: string): Promise<boolean> {
    const scripted = this.scripted({ kind: 'confirm', message, detail, choices: [action] });
    if (scripted.answered) return scripted.value === true || scripted.value === action;
    const picked = await vscode.window.showWarningMessage(message, { modal: true, detail }, action);
    return picked === action;
  }

  async pick<T extends vscode.QuickPickItem>(items: readonly T[], options: vscode.QuickPickOptions & { title: string }): Promise<T | undefined> {
    const scripted = this.scripted({ kind: 'pick', message: options.title, choices: items.map((item) => item.label) });
    if (scripted.answered) {
      const wanted = scripted.value;
      return typeof wanted === 'string' ? items.find((item) => item.label === wanted || (item as { id?: string }).id === wanted || item.description === wanted) : undefined;
    }
    return vscode.window.showQuickPick(items, { ignoreFocusOut: true, ...options });
  }

  async input(options: vscode.InputBoxOptions & { title: string }): Promise<string | undefined> {
    const scripted = this.scripted({ kind: 'input', message: options.title, detail: options.prompt });
    if (scripted.answered) {
      if (typeof scripted.value !== 'string') return undefined;
      const problem = await options.validateInput?.(scripted.value);
      if (problem) throw new Error(`scripted input "${scripted.value}" rejected: ${typeof problem === 'string' ? problem : problem.message}`);
      return scripted.value;
    }
    return vscode.window.showInputBox({ ignoreFocusOut: true, ...options });
  }

  async openFile(options: vscode.OpenDialogOptions & { title: string }): Promise<vscode.Uri | undefined> {
    const scripted = this.scripted({ kind: 'open', message: options.title });
    if (scripted.answered) return Array.isArray(scripted.value) ? scripted.value[0] : typeof scripted.value === 'string' ? vscode.Uri.file(scripted.value) : undefined;
    return (await vscode.window.showOpenDialog({ canSelectMany: false, ...options }))?.[0];
  }

  /** A non-blocking message with optional actions; the chosen action runs its callback. */
  info(message: string, ...actions: { title: string; run: () => unknown }[]): void {
    this.record(message);
    void vscode.window.showInformationMessage(message, ...actions.map((action) => action.title)).then((picked) => {
      actions.find((action) => action.title === picked)?.run();
    });
  }

  warn(message: string, ...actions: { title: string; run: () => unknown }[]): void {
    this.record(message);
    void vscode.window.showWarningMessage(message, ...actions.map((action) => action.title)).then((picked) => {
      actions.find((action) => action.title === picked)?.run();
    });
  }

  private record(message: string): void {
    this.shown.push(message);
    if (this.shown.length > 100) this.shown.splice(0, this.shown.length - 100);
  }

  private scripted(question: Question): { answered: false } | { answered: true; value: string | boolean | undefined | vscode.Uri[] } {
    if (this.queued.length === 0) return { answered: false };
    this.asked.push(question);
    const answer = this.queued.shift();
    return { answered: true, value: typeof answer === 'function' ? answer(question) : answer };
  }
}
