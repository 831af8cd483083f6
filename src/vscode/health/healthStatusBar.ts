import * as vscode from 'vscode';
import { summarizeHealth, type ApiProbe, type HealthSummary, type SystemCheckLike } from '../../core/health';
import { HealthMonitor } from '../../core/healthMonitor';
import type { Services } from '../services';
import { messageOf } from '../views/failures';

/** How long to wait after activation before the first check: activation itself stays offline. */
const firstCheckDelayMs = 1500;
const recheckMs = 5 * 60_000;

/**
 * A status bar item with the health of both APIs: the training API's system check (a 503 is
 * "degraded", with the failing checks in the tooltip) and the inference API's model list.
 * Clicking it checks again. When to check is the monitor's job; disposing it leaves no timer and
 * no request behind.
 */
export class HealthStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('rlStudio.health', vscode.StatusBarAlignment.Left, 10);
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly monitor: HealthMonitor;
  private last: HealthSummary | undefined;
  private disposed = false;

  constructor(private readonly services: Services) {
    this.item.name = 'RL Studio Health';
    this.item.command = 'rlStudio.checkHealth';
    this.render({ level: 'unknown', text: 'RL Studio', detail: ['Not checked yet'] }, true);
    this.monitor = new HealthMonitor({
      probe: (signal) => this.probe(signal),
      firstCheckDelayMs,
      recheckMs,
      describeError: (error) => messageOf(services, error),
    });
    this.subscriptions.push(services.onDidChangeConnection(() => this.monitor.restart()));
    this.monitor.start();
  }

  /** Checks both APIs now (a check already running is shared). */
  check(): Promise<HealthSummary> {
    return this.monitor.check();
  }

  get summary(): HealthSummary | undefined {
    return this.last;
  }

  dispose(): void {
    this.disposed = true;
    this.monitor.dispose();
    for (const subscription of this.subscriptions) subscription.dispose();
    this.item.dispose();
  }

  private async probe(signal: AbortSignal): Promise<HealthSummary> {
    const settings = this.services.settings.current;
    if (!settings.trainingApiUrl && !settings.inferenceApiUrl) {
      if (!this.disposed) this.item.hide();
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
    if (signal.aborted) throw new Error('The health check was stopped.');
    const [training, inference] = await Promise.all([
      settings.trainingApiUrl ? timed<SystemCheckLike>(() => client.training.systemCheck({ signal })) : Promise.resolve<ApiProbe<SystemCheckLike>>({ state: 'skipped', reason: 'not configured' }),
      !settings.inferenceApiUrl
        ? Promise.resolve<ApiProbe<unknown>>({ state: 'skipped', reason: 'not configured' })
        : signedIn ? timed(() => client.inference.listModels({ signal })) : Promise.resolve<ApiProbe<unknown>>({ state: 'skipped', reason: 'sign in to check' }),
    ]);
    const summary = summarizeHealth(training, inference);
    // Stopped meanwhile (disposed, or the connection changed): the answer is stale, the item may be gone.
    if (signal.aborted) return summary;
    this.last = summary;
    this.render(summary, false);
    return summary;
  }

  private render(summary: HealthSummary, checking: boolean): void {
    if (this.disposed) return;
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
