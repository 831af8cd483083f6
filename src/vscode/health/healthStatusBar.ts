import * as vscode from 'vscode';
import { summarizeHealth, type ApiProbe, type HealthSummary, type SystemCheckLike } from '../../core/health';
import type { Services } from '../services';
import { messageOf } from '../views/failures';

/** How long to wait after activation before the first check: activation itself stays offline. */
const firstCheckDelayMs = 1500;
const recheckMs = 5 * 60_000;

/**
 * A status bar item with the health of both APIs: the training API's system check (a 503 is
 * "degraded", with the failing checks in the tooltip) and the inference API's model list.
 * Clicking it checks again.
 */
export class HealthStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('rlStudio.health', vscode.StatusBarAlignment.Left, 10);
  private readonly subscriptions: vscode.Disposable[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running: Promise<HealthSummary> | undefined;
  private last: HealthSummary | undefined;

  constructor(private readonly services: Services) {
    this.item.name = 'RL Studio Health';
    this.item.command = 'rlStudio.checkHealth';
    this.render({ level: 'unknown', text: 'RL Studio', detail: ['Not checked yet'] }, true);
    this.subscriptions.push(services.onDidChangeConnection(() => this.schedule(firstCheckDelayMs)));
    this.schedule(firstCheckDelayMs);
  }

  /** Checks both APIs now (a check already running is shared). */
  check(): Promise<HealthSummary> {
    this.running ??= this.probe().finally(() => {
      this.running = undefined;
      this.schedule(recheckMs);
    });
    return this.running;
  }

  get summary(): HealthSummary | undefined {
    return this.last;
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const subscription of this.subscriptions) subscription.dispose();
    this.item.dispose();
  }

  private schedule(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.check(), ms);
  }

  private async probe(): Promise<HealthSummary> {
    const settings = this.services.settings.current;
    if (!settings.trainingApiUrl && !settings.inferenceApiUrl) {
      this.item.hide();
      return { level: 'unknown', text: 'RL Studio', detail: [] };
    }
    this.render({ level: this.last?.level ?? 'unknown', text: this.last?.text ?? 'RL Studio', detail: ['Checking…'] }, true);
    const client = await this.services.client();
    const timed = async <T>(call: () => Promise<T>): Promise<ApiProbe<T>> => {
      const started = Date.now();
      try {
        const value = await call();
        return { state: 'ok', value, ms: Date.now() - started };
      } catch (error) {
        return { state: 'error', message: messageOf(this.services, error), status: this.services.asPlatformError(error)?.status };
      }
    };
    const signedIn = await this.services.credentials.isSignedIn();
    const [training, inference] = await Promise.all([
      settings.trainingApiUrl ? timed<SystemCheckLike>(() => client.training.systemCheck()) : Promise.resolve<ApiProbe<SystemCheckLike>>({ state: 'skipped', reason: 'not configured' }),
      !settings.inferenceApiUrl
        ? Promise.resolve<ApiProbe<unknown>>({ state: 'skipped', reason: 'not configured' })
        : signedIn ? timed(() => client.inference.listModels()) : Promise.resolve<ApiProbe<unknown>>({ state: 'skipped', reason: 'sign in to check' }),
    ]);
    const summary = summarizeHealth(training, inference);
    this.last = summary;
    this.render(summary, false);
    return summary;
  }

  private render(summary: HealthSummary, checking: boolean): void {
    const icon = checking ? '$(sync~spin)' : summary.level === 'healthy' ? '$(pass)' : summary.level === 'degraded' ? '$(warning)' : summary.level === 'down' ? '$(error)' : '$(circle-outline)';
    this.item.text = `${icon} ${summary.text}`;
    this.item.backgroundColor = summary.level === 'down' ? new vscode.ThemeColor('statusBarItem.errorBackground') : summary.level === 'degraded' ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    const tooltip = new vscode.MarkdownString(undefined, true);
    tooltip.appendMarkdown(`**RL Studio** — ${checking ? 'checking…' : summary.level}\n\n`);
    tooltip.appendMarkdown(summary.detail.map((line) => (line.startsWith('- ') ? line : `\n${line}\n`)).join('\n'));
    tooltip.appendMarkdown('\n\n---\nClick to check again.');
    this.item.tooltip = tooltip;
    this.item.accessibilityInformation = { label: `RL Studio health: ${summary.level}` };
    this.item.show();
  }
}
