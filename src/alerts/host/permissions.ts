import * as vscode from 'vscode';
import type { Dialogs } from '../../platform/host/dialogs';
import { RememberedList } from '../../platform/host/rememberedItems';

/** One answer: may this rule of this file do this (run a command, send to a webhook at a host)? */
interface Answer {
  id: string;
  allowed: boolean;
  answeredAt: string;
}

/** Answers kept per workspace; past this the oldest are forgotten (and asked again if needed). */
const maxAnswers = 200;

/**
 * What a rules file a team committed may do on this person's machine, asked once and remembered
 * per workspace (workspaceState): each (rule, command) and each (rule, webhook at a host). A "no"
 * (or a dismissed question) holds for this window only, so a rule that fires every minute does not
 * ask every minute, and a question closed by mistake is asked again in the next window. Questions
 * about the same thing asked while one is open wait for its answer instead of opening a second one.
 */
export class AlertPermissions implements vscode.Disposable {
  private readonly answers: RememberedList<Answer>;
  private readonly open = new Map<string, Promise<boolean>>();
  /** Declined in this window (bounded like the answers kept). */
  private readonly declined = new Set<string>();

  constructor(
    memento: vscode.Memento,
    private readonly dialogs: Dialogs,
  ) {
    this.answers = new RememberedList<Answer>(memento, 'alertPermissions', () => 'workspace');
  }

  /** The remembered answer, or the person's answer to `question` (then remembered). */
  async allowed(id: string, question: { message: string; detail: string; action: string }): Promise<boolean> {
    if (this.answers.get(id)?.allowed) return true;
    if (this.declined.has(id)) return false;
    let pending = this.open.get(id);
    if (!pending) {
      pending = this.ask(id, question).finally(() => this.open.delete(id));
      this.open.set(id, pending);
    }
    return pending;
  }

  dispose(): void {
    this.answers.dispose();
  }

  private async ask(id: string, question: { message: string; detail: string; action: string }): Promise<boolean> {
    const allowed = await this.dialogs.confirm(question.message, question.detail, question.action);
    if (!allowed) {
      if (this.declined.size < maxAnswers) this.declined.add(id);
      return false;
    }
    await this.answers.add({ id, allowed, answeredAt: new Date().toISOString() });
    const kept = this.answers.list();
    for (const old of kept.slice(maxAnswers)) await this.answers.remove(old.id);
    return allowed;
  }
}
