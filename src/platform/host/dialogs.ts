import * as vscode from 'vscode';

/** A question the extension asked the user, as recorded for its tests. */
export interface Question {
  kind: 'confirm' | 'choose' | 'pick' | 'input' | 'open' | 'save';
  message: string;
  detail?: string;
  /** Labels of the offered choices (quick picks) or the confirming action. */
  choices?: string[];
}

/** An answer given in place of the user: a label to pick, text to type, true/false to confirm, undefined to cancel. */
export type ScriptedAnswer = string | boolean | undefined | vscode.Uri[] | ((question: Question) => string | boolean | undefined | vscode.Uri[]);

/** At most this many questions and messages are kept for the tests. */
const keptRecords = 100;

/**
 * Every dialog of the extension goes through here (services.dialogs): VS Code's window. Under the
 * extension's own tests (and only then: `scriptable` is services.testMode) answers can be queued,
 * so flows with modal confirmations and quick picks run end to end without a person. This is the
 * one way a test answers a question: no command takes a confirmation or a dialog's answer as an
 * argument. In a normal install nothing can pre-answer a question: another extension that reaches
 * this object still gets a person's answer.
 */
export class Dialogs {
  private readonly queued: ScriptedAnswer[] = [];
  /** Questions asked while the tests run, oldest first (nothing is kept otherwise). */
  readonly asked: Question[] = [];
  /** Information and warning messages shown, oldest first. */
  readonly shown: string[] = [];

  constructor(private readonly scriptable: boolean) {}

  /** Answers the next questions, in order, instead of showing them (tests only). */
  answerNext(...answers: ScriptedAnswer[]): void {
    if (!this.scriptable) throw new Error('answers can be queued only while the extension runs its own tests');
    this.queued.push(...answers);
  }

  /** A modal confirmation naming what will happen; true only when the action button is chosen. */
  async confirm(message: string, detail: string, action: string): Promise<boolean> {
    const scripted = this.scripted({ kind: 'confirm', message, detail, choices: [action] });
    if (scripted.answered) return scripted.value === true || scripted.value === action;
    const picked = await vscode.window.showWarningMessage(message, { modal: true, detail }, action);
    return picked === action;
  }

  /**
   * A question with a few answers: a notification (a warning unless `severity` says otherwise), or
   * a modal dialog when `modal`. Resolves with the chosen answer, or undefined when dismissed.
   */
  async choose<T extends string>(message: string, options: { modal: boolean; detail?: string; severity?: 'info' | 'warning' | 'error' }, ...answers: T[]): Promise<T | undefined> {
    const scripted = this.scripted({ kind: 'choose', message, detail: options.detail, choices: answers });
    if (scripted.answered) return answers.find((answer) => answer === scripted.value);
    this.record(message);
    const shape = { modal: options.modal, detail: options.detail };
    const picked = await (options.severity === 'info'
      ? vscode.window.showInformationMessage(message, shape, ...answers)
      : options.severity === 'error'
        ? vscode.window.showErrorMessage(message, shape, ...answers)
        : vscode.window.showWarningMessage(message, shape, ...answers));
    return answers.find((answer) => answer === picked);
  }

  async pick<T extends vscode.QuickPickItem>(items: readonly T[], options: vscode.QuickPickOptions & { title: string }): Promise<T | undefined> {
    const scripted = this.scripted({ kind: 'pick', message: options.title, choices: items.map((item) => item.label) });
    if (scripted.answered) {
      const wanted = scripted.value;
      return typeof wanted === 'string' ? items.find((item) => item.label === wanted || (item as { id?: string }).id === wanted || item.description === wanted) : undefined;
    }
    return vscode.window.showQuickPick(items, { ignoreFocusOut: true, ...options });
  }

  /** Several items at once (the ones with `picked` ticked at first); scripted answers name them by label or id, one a line. */
  async pickMany<T extends vscode.QuickPickItem>(items: readonly T[], options: { title: string; placeHolder?: string }): Promise<T[] | undefined> {
    const scripted = this.scripted({ kind: 'pick', message: options.title, choices: items.map((item) => item.label) });
    if (scripted.answered) {
      if (typeof scripted.value !== 'string') return undefined;
      const wanted = new Set(scripted.value.split('\n'));
      return items.filter((item) => wanted.has(item.label) || wanted.has((item as { id?: string }).id ?? ''));
    }
    return vscode.window.showQuickPick(items, { ignoreFocusOut: true, canPickMany: true, ...options });
  }

  /**
   * An input box. With `accept`, the box stays open while the answer is checked (busy, not
   * editable) and shows what `accept` says is wrong under the text, so the person fixes it where
   * they typed it; it closes with the answer once `accept` finds nothing wrong.
   */
  async input(options: vscode.InputBoxOptions & { title: string; accept?: (value: string) => Promise<string | undefined> }): Promise<string | undefined> {
    const { accept, ...boxOptions } = options;
    const scripted = this.scripted({ kind: 'input', message: options.title, detail: options.prompt });
    if (scripted.answered) {
      if (typeof scripted.value !== 'string') return undefined;
      const problem = await options.validateInput?.(scripted.value);
      // As in VS Code's input box, an information or a warning does not stop the answer; an error does.
      const blocking = typeof problem === 'string' ? problem : problem?.severity === vscode.InputBoxValidationSeverity.Error ? problem.message : undefined;
      if (blocking) throw new Error(`scripted input "${scripted.value}" rejected: ${blocking}`);
      const refused = await accept?.(scripted.value);
      if (refused !== undefined) {
        // A scripted person cannot type again: what the box would show is recorded, and nothing is answered.
        this.record(refused);
        return undefined;
      }
      return scripted.value;
    }
    if (!accept) return vscode.window.showInputBox({ ignoreFocusOut: true, ...boxOptions });
    return this.checkedInput(boxOptions, accept);
  }

  private checkedInput(options: vscode.InputBoxOptions & { title: string }, accept: (value: string) => Promise<string | undefined>): Promise<string | undefined> {
    const box = vscode.window.createInputBox();
    box.title = options.title;
    box.prompt = options.prompt;
    box.placeholder = options.placeHolder;
    box.password = options.password ?? false;
    box.ignoreFocusOut = options.ignoreFocusOut ?? true;
    box.value = options.value ?? '';
    return new Promise<string | undefined>((resolve) => {
      let done = false;
      const finish = (value: string | undefined): void => {
        if (done) return;
        done = true;
        resolve(value);
        box.hide();
        for (const subscription of subscriptions) subscription.dispose();
        box.dispose();
      };
      const validate = async (value: string): Promise<string | undefined> => {
        const problem = await options.validateInput?.(value);
        return typeof problem === 'string' ? problem : problem?.severity === vscode.InputBoxValidationSeverity.Error ? problem.message : undefined;
      };
      const subscriptions = [
        box.onDidChangeValue(async (value) => {
          box.validationMessage = await validate(value);
        }),
        box.onDidAccept(async () => {
          if (box.busy) return;
          const value = box.value;
          const invalid = await validate(value);
          if (invalid) {
            box.validationMessage = invalid;
            return;
          }
          box.busy = true;
          box.enabled = false;
          try {
            const refused = await accept(value);
            if (refused === undefined) return finish(value);
            box.validationMessage = { message: refused, severity: vscode.InputBoxValidationSeverity.Error };
          } finally {
            box.busy = false;
            box.enabled = true;
          }
        }),
        box.onDidHide(() => finish(undefined)),
      ];
      box.show();
    });
  }

  async openFile(options: vscode.OpenDialogOptions & { title: string }): Promise<vscode.Uri | undefined> {
    const scripted = this.scripted({ kind: 'open', message: options.title });
    if (scripted.answered) return Array.isArray(scripted.value) ? scripted.value[0] : typeof scripted.value === 'string' ? vscode.Uri.file(scripted.value) : undefined;
    return (await vscode.window.showOpenDialog({ canSelectMany: false, ...options }))?.[0];
  }

  async saveFile(options: vscode.SaveDialogOptions & { title: string }): Promise<vscode.Uri | undefined> {
    const scripted = this.scripted({ kind: 'save', message: options.title });
    if (scripted.answered) return typeof scripted.value === 'string' ? vscode.Uri.file(scripted.value) : undefined;
    return vscode.window.showSaveDialog(options);
  }

  /** A non-blocking message with optional actions; the chosen action runs its callback. */
  info(message: string, ...actions: { title: string; run: () => unknown }[]): void {
    this.record(message);
    void Promise.resolve(vscode.window.showInformationMessage(message, ...actions.map((action) => action.title))).then((picked) => {
      actions.find((action) => action.title === picked)?.run();
    });
  }

  warn(message: string, ...actions: { title: string; run: () => unknown }[]): void {
    this.record(message);
    void Promise.resolve(vscode.window.showWarningMessage(message, ...actions.map((action) => action.title))).then((picked) => {
      actions.find((action) => action.title === picked)?.run();
    });
  }

  /** An error message with the actions that fix it; not awaited, so the command that failed ends at once. */
  error(message: string, ...actions: { title: string; run: () => unknown }[]): void {
    this.record(message);
    void Promise.resolve(vscode.window.showErrorMessage(message, ...actions.map((action) => action.title))).then((picked) => {
      actions.find((action) => action.title === picked)?.run();
    });
  }

  private record(message: string): void {
    this.shown.push(message);
    if (this.shown.length > keptRecords) this.shown.splice(0, this.shown.length - keptRecords);
  }

  private scripted(question: Question): { answered: false } | { answered: true; value: string | boolean | undefined | vscode.Uri[] } {
    if (!this.scriptable) return { answered: false };
    this.asked.push(question);
    if (this.asked.length > keptRecords) this.asked.splice(0, this.asked.length - keptRecords);
    if (this.queued.length === 0) return { answered: false };
    const answer = this.queued.shift();
    return { answered: true, value: typeof answer === 'function' ? answer(question) : answer };
  }
}
