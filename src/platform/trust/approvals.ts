import * as vscode from 'vscode';

/** At most this many approvals are kept; the oldest go first. */
const keptApprovals = 200;

/**
 * Answers the user gave about workspace-set endpoints, kept in a Memento: the origins and projects
 * they allowed (globalState: an approval holds for every workspace that names the same origin) or
 * declined (workspaceState: the question is not asked again in that workspace).
 */
export class ApprovalList implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly memento: vscode.Memento,
    private readonly storageKey: string,
  ) {}

  has(approvalKey: string): boolean {
    return this.list().includes(approvalKey);
  }

  list(): string[] {
    const stored = this.memento.get<unknown>(this.storageKey, []);
    return Array.isArray(stored) ? stored.filter((entry): entry is string => typeof entry === 'string') : [];
  }

  async add(approvalKeys: readonly string[]): Promise<void> {
    const fresh = [...new Set(approvalKeys)].filter((key) => !this.has(key));
    if (fresh.length === 0) return;
    const kept = [...this.list(), ...fresh].slice(-keptApprovals);
    await this.memento.update(this.storageKey, kept);
    this.changed.fire();
  }

  async remove(approvalKeys: readonly string[]): Promise<void> {
    const kept = this.list().filter((key) => !approvalKeys.includes(key));
    await this.memento.update(this.storageKey, kept);
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }
}

export const approvedStorageKey = 'rlStudio.trust.approved';
export const declinedStorageKey = 'rlStudio.trust.declined';
