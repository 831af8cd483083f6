import * as vscode from 'vscode';
import { realpath } from 'node:fs/promises';
import { describeCondition, firingKey, type AlertAction, type AlertFiring } from '../model/alertRules';
import { alertMessage, alertNotice, alertVariableValues } from '../model/alertVariables';
import { FiringBudget } from '../model/firingBudget';
import { isInsideFolder, workspaceRelativePath } from '../model/workspacePath';
import { errorMessage } from '../../platform/client/errorMessage';
import { claimOrActHere, sweepClaims } from '../../platform/host/onceAcrossWindows';
import { describeUrl, quoted } from '../../platform/kit/confirmationText';
import type { Services } from '../../platform/host/services';
import { sendTemplate, type WebhookStore } from '../../webhooks';
import type { AlertPermissions } from './permissions';
import { findWebhook, type AlertRulesFiles, type RuleSource } from './rulesFiles';

/** A payload template larger than this is not read (the payload language analyses up to 1 MB). */
const maxTemplateBytes = 1024 * 1024;
/** How often one rule may act in a minute: a flapping metric cannot flood anyone. */
const firingsPerMinute = 3;
/** Problems told once each per window; past this many, only logged. */
const maxToldProblems = 200;
/** A claim older than this is cleared at start: the firing it stood for is long acted on. */
const claimLifetimeMs = 14 * 24 * 3600_000;

/**
 * Does what a fired rule says: a notification, a VS Code command (asked once per rule and command,
 * never in Restricted Mode) or a payload sent signed to one of the person's webhooks (asked once
 * per rule and webhook host, never in Restricted Mode). Every firing is logged with its rule and
 * context, whatever its actions do.
 */
export class AlertActions {
  private readonly budget = new FiringBudget(firingsPerMinute, 60_000);
  private readonly told = new Set<string>();
  private readonly claims: vscode.Uri;

  constructor(
    private readonly services: Services,
    private readonly files: AlertRulesFiles,
    private readonly webhooks: WebhookStore,
    private readonly permissions: AlertPermissions,
  ) {
    this.claims = vscode.Uri.joinPath(services.context.globalStorageUri, 'alert-claims');
    void sweepClaims(this.claims.fsPath, claimLifetimeMs);
  }

  run(firings: readonly AlertFiring[]): void {
    for (const firing of firings) void this.act(firing);
  }

  private async act(firing: AlertFiring): Promise<void> {
    const { rule, context } = firing;
    const source = this.files.sourceOf(rule);
    const where = source ? vscode.workspace.asRelativePath(source.file) : '.rlstudio/alerts.json';
    const log = this.services.log;
    // Every window following the job sees the same firing: the first to claim it acts.
    if (!(await this.claim(`${this.services.settings.current.trainingApiUrl}\n${source?.file.toString() ?? ''}\n${firingKey(firing)}`))) {
      log.info(`Alert rule ${quoted(rule.name, 100)} (${where}) fired, and another window acts on it. ${alertMessage(firing)}.`);
      return;
    }
    if (!this.budget.take(`${source?.file.toString() ?? ''}\n${rule.name}`, Date.now())) {
      log.info(`Alert rule ${quoted(rule.name, 100)} (${where}) fired again but did nothing: it acted ${firingsPerMinute} times in the last minute. ${alertMessage(firing)}.`);
      return;
    }
    log.info(`Alert rule ${quoted(rule.name, 100)} (${where}) fired: ${describeCondition(rule.when)}. ${alertMessage(firing)}. Context: ${JSON.stringify(context)}.`);
    for (const action of rule.actions) {
      try {
        await this.perform(action, firing, source);
      } catch (error) {
        this.tellOnce(`${where}\n${rule.name}\n${action.kind}\n${errorMessage(error)}`, `Alert rule ${quoted(rule.name, 100)}: its ${action.kind} action failed: ${errorMessage(error)}`);
      }
    }
  }

  private async perform(action: AlertAction, firing: AlertFiring, source: RuleSource | undefined): Promise<void> {
    switch (action.kind) {
      case 'notify':
        return this.notify(action.level, firing, source);
      case 'command':
        return this.runCommand(action.command, firing, source);
      case 'webhook':
        return this.send(action, firing, source);
    }
  }

  private notify(level: 'info' | 'warning' | 'error', firing: AlertFiring, source: RuleSource | undefined): void {
    const text = this.services.log.redact(alertNotice(firing));
    const buttons: { title: string; run: () => unknown }[] = [];
    const jobId = firing.context.jobId;
    if (jobId !== undefined) buttons.push({ title: 'Open Job Details', run: () => vscode.commands.executeCommand('rlStudio.openJobDetails', jobId) });
    if (source) buttons.push({ title: 'Open Rules', run: () => vscode.window.showTextDocument(source.file) });
    const dialogs = this.services.dialogs;
    if (level === 'error') dialogs.error(text, ...buttons);
    else if (level === 'warning') dialogs.warn(text, ...buttons);
    else dialogs.info(text, ...buttons);
  }

  private async runCommand(command: string, firing: AlertFiring, source: RuleSource | undefined): Promise<void> {
    const rule = firing.rule;
    const where = source ? vscode.workspace.asRelativePath(source.file) : '.rlstudio/alerts.json';
    const key = `${where}\n${rule.name}\ncommand:${command}`;
    if (!vscode.workspace.isTrusted) {
      this.tellOnce(`${key}\nrestricted`, `Alert rule ${quoted(rule.name, 100)} did not run the command ${command}: commands from a workspace's alert rules run only in a trusted workspace.`);
      return;
    }
    if (!(await vscode.commands.getCommands(true)).includes(command)) {
      this.tellOnce(`${key}\nmissing`, `Alert rule ${quoted(rule.name, 100)} names the command ${command}, which does not exist here (is the extension that provides it installed?). Nothing was run.`);
      return;
    }
    const allowed = await this.permissions.allowed(`${source?.file.toString() ?? ''}\n${rule.name}\ncommand:${command}`, {
      message: `Let the alert rule ${quoted(rule.name, 100)} run the VS Code command ${command}?`,
      detail: [
        `Command: ${command} (with no arguments)`,
        `Rule: ${quoted(rule.name, 100)}, when ${describeCondition(rule.when)}`,
        `File: ${where} (a workspace file: whoever can change the repository wrote it)`,
        'You are asked once: "Allow" is remembered for this workspace.',
      ].join('\n'),
      action: 'Allow',
    });
    if (!allowed) {
      this.services.log.info(`Alert rule ${quoted(rule.name, 100)}: the command ${command} was not allowed, so it was not run.`);
      return;
    }
    this.services.log.info(`Alert rule ${quoted(rule.name, 100)}: running the command ${command}.`);
    await vscode.commands.executeCommand(command);
  }

  private async send(action: Extract<AlertAction, { kind: 'webhook' }>, firing: AlertFiring, source: RuleSource | undefined): Promise<void> {
    const rule = firing.rule;
    const where = source ? vscode.workspace.asRelativePath(source.file) : '.rlstudio/alerts.json';
    const key = `${where}\n${rule.name}\nwebhook:${action.webhook}`;
    const named = `Alert rule ${quoted(rule.name, 100)}`;
    if (!vscode.workspace.isTrusted) {
      this.tellOnce(`${key}\nrestricted`, `${named} sent nothing to "${action.webhook}": workspace alert rules send to webhooks only in a trusted workspace.`);
      return;
    }
    const webhook = findWebhook(this.webhooks.list(), action.webhook);
    if (!webhook) {
      this.services.log.warn(`${named} (${where}): no webhook named "${action.webhook}" is set up in RL Studio; nothing was sent.`);
      return;
    }
    if (!source) return;
    const template = await this.readTemplate(action.payload, source);
    if ('problem' in template) {
      this.tellOnce(`${key}\n${template.problem}`, `${named} sent nothing to "${webhook.name}": the payload ${quoted(action.payload, 200)} ${template.problem}.`);
      return;
    }
    const outcome = await sendTemplate(this.services, this.webhooks, {
      webhook,
      template: template.text,
      values: alertVariableValues(firing),
      scopes: ['alert'],
      confirm: (url) => {
        const host = describeUrl(url).host ?? '(not a URL)';
        return this.permissions.allowed(`${source.file.toString()}\n${rule.name}\nwebhook:${webhook.id}\n${host}`, {
          message: `Let the alert rule ${quoted(rule.name, 100)} send to the webhook "${webhook.name}" at ${host}?`,
          detail: [
            `Endpoint host: ${host}${describeUrl(url).scheme === 'http' ? ' (http: not encrypted)' : ''}`,
            `Rule: ${quoted(rule.name, 100)}, when ${describeCondition(rule.when)}`,
            `File: ${where} (a workspace file: whoever can change the repository wrote it)`,
            `Payload: ${action.payload}, rendered with the alert's values and signed with the webhook's secret`,
            'You are asked once: "Allow" is remembered for this workspace.',
          ].join('\n'),
          action: 'Allow and Send',
        });
      },
    });
    if (!outcome.sent) {
      if (outcome.declined) this.services.log.info(`${named}: sending to "${webhook.name}" was not allowed, so nothing was sent.`);
      else this.tellOnce(`${key}\n${outcome.reason}`, `${named} sent nothing to "${webhook.name}": ${outcome.reason}.`);
      return;
    }
    const answer = outcome.status !== undefined ? `the endpoint answered ${outcome.status}` : (outcome.failure ?? 'no answer');
    if (outcome.ok) this.services.log.info(`${named}: sent to "${webhook.name}" (${webhook.endpoint}): ${answer}.`);
    else this.tellOnce(`${key}\nfailed`, `${named}: the send to "${webhook.name}" failed: ${answer}.`);
  }

  /** The template's text, read only from inside the workspace folder that holds the rules. */
  private async readTemplate(path: string, source: RuleSource): Promise<{ text: string } | { problem: string }> {
    const relative = workspaceRelativePath(path);
    if ('problem' in relative) return { problem: `is not used: ${relative.problem}` };
    const uri = vscode.Uri.joinPath(source.folder.uri, ...relative.segments);
    if (uri.scheme === 'file') {
      // A link inside the folder may point anywhere: where it really leads must be inside too.
      try {
        const [folder, target] = await Promise.all([realpath(source.folder.uri.fsPath), realpath(uri.fsPath)]);
        if (!isInsideFolder(folder, target, folder.includes('\\') ? '\\' : '/')) return { problem: 'leads out of the workspace folder through a link, so it is not read' };
      } catch {
        return { problem: 'does not exist in the workspace folder' };
      }
    }
    try {
      const stat = await vscode.workspace.fs.stat(uri);
      if (stat.size > maxTemplateBytes) return { problem: `is larger than ${maxTemplateBytes / 1024} KB` };
      return { text: new TextDecoder('utf-8', { fatal: false }).decode(await vscode.workspace.fs.readFile(uri)) };
    } catch {
      return { problem: 'could not be read from the workspace folder' };
    }
  }

  /** True for the one window that claims this firing first (and here too when claims cannot be made: better twice than never). */
  private claim(key: string): Promise<boolean> {
    return claimOrActHere(this.claims.fsPath, key, (error) => this.services.log.warn(`An alert could not be claimed (${errorMessage(error)}); it is acted on in this window.`));
  }

  /** Logged each time; shown as a warning once per window for the same problem. */
  private tellOnce(key: string, text: string): void {
    const message = this.services.log.redact(text);
    this.services.log.warn(message);
    if (this.told.has(key) || this.told.size >= maxToldProblems) return;
    this.told.add(key);
    this.services.dialogs.warn(message);
  }
}
