import * as vscode from 'vscode';
import { ContextKeys, setContext } from '../host/contextKeys';
import type { Services } from '../host/services';
import type { SettingsReview } from '../host/settings';
import type { Dialogs } from '../host/dialogs';
import type { ApprovalList } from './approvals';
import { settingLabels, type PendingApproval, type RefusedValue } from './endpointPolicy';

export const allowAnswer = 'Allow';
export const declineAnswer = 'Use My Own Settings';

/**
 * Asks the user about endpoint values a workspace sets, once per value and workspace: "Allow"
 * remembers the origin (or project) for every workspace, "Use My Own Settings" keeps the question
 * from coming back in this workspace. Until allowed, nothing is sent there (see endpointPolicy.ts).
 * Refused values (plain http to another machine) are reported once each.
 */
export class WorkspaceEndpoints implements vscode.Disposable {
  /** Approval keys asked about in this window, so an open question is not asked twice. */
  private readonly asked = new Set<string>();
  private readonly reported = new Set<string>();
  private readonly subscription: vscode.Disposable;

  private readonly dialogs: Dialogs;
  private readonly approved: ApprovalList;
  private readonly declined: ApprovalList;

  constructor(private readonly services: Services) {
    this.dialogs = services.dialogs;
    this.approved = services.approvals.allowed;
    this.declined = services.approvals.declined;
    this.subscription = services.settings.onDidChange(() => this.update());
    services.registerCommand('rlStudio.reviewWorkspaceSettings', () => this.review());
    this.update();
  }

  /** Asks again about every workspace value not allowed yet, declined ones included (a modal dialog). */
  async review(): Promise<boolean> {
    const pending = this.services.settings.review.pending;
    if (pending.length === 0) {
      this.dialogs.info('This workspace sets no RL Studio address or project that waits for your approval.');
      return false;
    }
    return this.ask(pending, true);
  }

  dispose(): void {
    this.subscription.dispose();
  }

  private update(): void {
    const { pending, refused } = this.services.settings.review;
    setContext(ContextKeys.workspaceSettingsPending, pending.length > 0);
    this.reportRefused(refused);
    const fresh = pending.filter((item) => !this.asked.has(item.approvalKey) && !this.declined.has(item.approvalKey));
    if (fresh.length > 0) void this.ask(fresh, false);
  }

  private async ask(pending: PendingApproval[], modal: boolean): Promise<boolean> {
    for (const item of pending) this.asked.add(item.approvalKey);
    const keys = pending.map((item) => item.approvalKey);
    const question = describePending(pending);
    this.services.log.info(`waiting for approval: ${question}`);
    const answer = await this.dialogs.choose(
      question,
      {
        modal,
        detail: 'Until you allow it, RL Studio uses your own settings and sends nothing to these addresses. Allow only addresses you trust: whoever runs them receives your key.',
      },
      allowAnswer,
      declineAnswer,
    );
    if (answer === allowAnswer) {
      await this.declined.remove(keys);
      await this.approved.add(keys);
      this.services.log.info(`allowed by the user: ${pending.map((item) => item.shown).join(', ')}`);
      return true;
    }
    if (answer === declineAnswer) {
      await this.declined.add(keys);
      this.services.log.info(`declined by the user: ${pending.map((item) => item.shown).join(', ')}`);
    }
    return false;
  }

  private reportRefused(refused: RefusedValue[]): void {
    for (const item of refused) {
      const id = `${item.setting}\u0000${item.value}`;
      if (this.reported.has(id)) continue;
      this.reported.add(id);
      const where = item.fromWorkspace ? "this workspace's settings" : 'your settings';
      const message = `RL Studio does not use the ${settingLabels[item.setting]} ${item.setting === 'project' ? 'value' : 'address'} "${item.value}" from ${where}: ${item.problem}.`;
      this.services.log.warn(message);
      this.dialogs.warn(message, { title: 'Open Settings', run: () => vscode.commands.executeCommand('rlStudio.configure') });
    }
  }
}

/** "This workspace sets the training API to https://host. Send your RL Studio API key there?" */
export function describePending(pending: readonly PendingApproval[]): string {
  const addresses = pending.filter((item) => item.setting !== 'project');
  const projects = pending.filter((item) => item.setting === 'project');
  const parts: string[] = [];
  const byOrigin = new Map<string, string[]>();
  for (const item of addresses) byOrigin.set(item.shown, [...(byOrigin.get(item.shown) ?? []), settingLabels[item.setting]]);
  for (const [origin, labels] of byOrigin) {
    parts.push(labels.length > 1 ? `the training and inference APIs to ${origin}` : `the ${labels[0]} to ${origin}`);
  }
  for (const item of projects) parts.push(`the project to ${item.shown}`);
  const listed = parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : parts[0];
  if (addresses.length === 0) return `This workspace sets the RL Studio project to ${projects[0]!.shown}, sent with your API key to attribute usage. Use it?`;
  return `This workspace sets ${listed}. Send your RL Studio API key there?`;
}

/** The review state as the tests read it. */
export function reviewSnapshot(review: SettingsReview): { pending: string[]; refused: string[] } {
  return {
    pending: review.pending.map((item) => `${item.setting} ${item.shown}`),
    refused: review.refused.map((item) => `${item.setting} ${item.value}: ${item.problem}`),
  };
}
