import * as vscode from 'vscode';
import { parseAlertRules, type AlertRule, type RuleProblem } from '../model/alertRules';
import { locateProblems, rangesOf } from '../../platform/kit/jsonProblemLocations';
import { errorMessage } from '../../platform/client/errorMessage';
import type { Services } from '../../platform/host/services';
import type { Webhook, WebhookStore } from '../../webhooks';

/** Where a team keeps its rules, in each workspace folder. */
export const rulesFileSegments = ['.rlstudio', 'alerts.json'] as const;
/** A rules file larger than this is not read: a list of rules is a few kilobytes. */
export const maxRulesFileBytes = 256 * 1024;

export function rulesFileOf(folder: vscode.WorkspaceFolder): vscode.Uri {
  return vscode.Uri.joinPath(folder.uri, ...rulesFileSegments);
}

/** The file a rule was read from, and the folder its paths are relative to. */
export interface RuleSource {
  folder: vscode.WorkspaceFolder;
  file: vscode.Uri;
}

interface FolderRules {
  source: RuleSource;
  text: string;
  rules: AlertRule[];
  problems: RuleProblem[];
}

/** One of the person's webhooks, named by id or by name in a rule. */
export function findWebhook(webhooks: readonly Webhook[], wanted: string): Webhook | undefined {
  return webhooks.find((webhook) => webhook.id === wanted) ?? webhooks.find((webhook) => webhook.name === wanted);
}

/**
 * The rules of every workspace folder's `.rlstudio/alerts.json`, read when asked and again when
 * the file changes, and their problems shown on the file, at the value each is about. A rule
 * naming a webhook the person has not set up is flagged (and logged) again whenever the webhooks
 * change.
 */
export class AlertRulesFiles implements vscode.Disposable {
  private readonly diagnostics = vscode.languages.createDiagnosticCollection('RL Studio alert rules');
  private readonly byFolder = new Map<string, FolderRules>();
  private readonly sources = new Map<AlertRule, RuleSource>();
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when the rules read changed. */
  readonly onDidChange = this.changed.event;
  private readonly subscriptions: vscode.Disposable[];
  /** Reads in order, one at a time: a change while a read runs is read after it. */
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly services: Services,
    private readonly webhooks: WebhookStore,
  ) {
    this.subscriptions = [
      webhooks.onDidChange(() => {
        for (const entry of this.byFolder.values()) this.show(entry);
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => void this.readAll()),
    ];
  }

  /** Every rule read, with where it came from. */
  rules(): { rule: AlertRule; source: RuleSource }[] {
    return [...this.byFolder.values()].flatMap((entry) => entry.rules.map((rule) => ({ rule, source: entry.source })));
  }

  sourceOf(rule: AlertRule): RuleSource | undefined {
    return this.sources.get(rule);
  }

  /** Reads the rules file of every workspace folder (and forgets folders that are gone). */
  readAll(): Promise<void> {
    const folders = vscode.workspace.workspaceFolders ?? [];
    const keys = new Set(folders.map((folder) => folder.uri.toString()));
    for (const [key, entry] of this.byFolder) {
      if (keys.has(key)) continue;
      this.drop(key, entry);
    }
    return Promise.all(folders.map((folder) => this.read(folder))).then(() => undefined);
  }

  /** The file `uri` changed, appeared or went: read its folder's rules again. */
  fileChanged(uri: vscode.Uri): Promise<void> {
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    if (!folder || rulesFileOf(folder).toString() !== uri.toString()) return Promise.resolve();
    return this.read(folder);
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.diagnostics.dispose();
    this.changed.dispose();
  }

  private read(folder: vscode.WorkspaceFolder): Promise<void> {
    this.queue = this.queue.then(() => this.readNow(folder)).catch((error: unknown) => this.services.log.warn(`Alert rules: ${errorMessage(error)}`));
    return this.queue;
  }

  private async readNow(folder: vscode.WorkspaceFolder): Promise<void> {
    const file = rulesFileOf(folder);
    const key = folder.uri.toString();
    const source = { folder, file };
    let text: string;
    try {
      const stat = await vscode.workspace.fs.stat(file);
      if (stat.size > maxRulesFileBytes) {
        const message = `The rules file is ${Math.ceil(stat.size / 1024)} KB: alert rules are read from files of at most ${maxRulesFileBytes / 1024} KB, so none of these is used.`;
        this.set(key, { source, text: '', rules: [], problems: [{ path: '', message, severity: 'error' }] });
        return;
      }
      text = new TextDecoder('utf-8', { fatal: false }).decode(await vscode.workspace.fs.readFile(file));
    } catch (error) {
      if (error instanceof vscode.FileSystemError && error.code === 'FileNotFound') {
        const entry = this.byFolder.get(key);
        if (entry) this.drop(key, entry);
        return;
      }
      throw error;
    }
    const { rules, problems } = parseAlertRules(text);
    this.set(key, { source, text, rules, problems });
    this.services.log.info(
      `Alert rules: ${rules.length} read from ${vscode.workspace.asRelativePath(file)}${problems.length > 0 ? ` (${problems.length} problem${problems.length === 1 ? '' : 's'} shown on the file)` : ''}.`,
    );
  }

  private set(key: string, entry: FolderRules): void {
    const old = this.byFolder.get(key);
    for (const rule of old?.rules ?? []) this.sources.delete(rule);
    for (const rule of entry.rules) this.sources.set(rule, entry.source);
    this.byFolder.set(key, entry);
    this.show(entry);
    this.changed.fire();
  }

  private drop(key: string, entry: FolderRules): void {
    for (const rule of entry.rules) this.sources.delete(rule);
    this.byFolder.delete(key);
    this.diagnostics.delete(entry.source.file);
    this.changed.fire();
  }

  /** The file's problems, and a warning on each webhook action that names none of the person's webhooks. */
  private show(entry: FolderRules): void {
    const webhooks = this.webhooks.list();
    const problems = [...entry.problems];
    for (const rule of entry.rules) {
      for (const action of rule.actions) {
        if (action.kind !== 'webhook' || findWebhook(webhooks, action.webhook)) continue;
        const message = `No webhook named "${action.webhook}" is set up in RL Studio: this rule sends nothing to it. Add it in the Webhooks view (your own webhooks only are used).`;
        problems.push({ path: `${action.path}.webhook`, message, severity: 'warning' });
        this.services.log.warn(`Alert rule "${rule.name}" (${vscode.workspace.asRelativePath(entry.source.file)}): no webhook named "${action.webhook}" is set up; nothing will be sent to it.`);
      }
    }
    const ranges = rangesOf(
      entry.text,
      locateProblems(
        entry.text,
        problems.map((problem) => problem.path),
      ),
    );
    this.diagnostics.set(
      entry.source.file,
      problems.map((problem, index) => {
        const range = ranges[index]!;
        const diagnostic = new vscode.Diagnostic(
          new vscode.Range(range.line, range.column, range.endLine, range.endColumn),
          problem.message,
          problem.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning,
        );
        diagnostic.source = 'RL Studio';
        return diagnostic;
      }),
    );
  }
}
