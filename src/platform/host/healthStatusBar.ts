import * as vscode from 'vscode';
import type { PlatformApi } from '../client/types';
import { verdictOf, type HealthChange, type HealthSummary, type SystemCheckLike } from '../health/health';
import { HealthMonitor } from '../health/healthMonitor';
import type { Services } from './services';

/** How long to wait after activation before the first check: activation itself stays offline. */
const firstCheckDelayMs = 1500;
/** While everything answers, calls themselves report failures: a check now and then is enough. */
const recheckMs = 5 * 60_000;

/**
 * A status bar item with the health of both APIs, drawn from the shared health state: what every
 * call saw (a refused connection turns it red at once, the next answer turns it back) and its own
 * checks, the training API's system check (a 503 is "degraded", with the failing checks in the
 * tooltip) and the inference API's model list. While an API fails it checks again every few
 * seconds, so a platform that comes back is seen without a click. Clicking it checks now.
 * When to check is the monitor's job; disposing it leaves no timer and no request behind.
 */
export class HealthStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('rlStudio.health', vscode.StatusBarAlignment.Left, 10);
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly monitor: HealthMonitor;
  private last: HealthSummary | undefined;
  private checkingOnRequest = false;
  private disposed = false;

  constructor(private readonly services: Services) {
    this.item.name = 'RL Studio Health';
    this.item.command = 'rlStudio.checkHealth';
    this.render({ level: 'unknown', text: 'RL Studio', detail: ['Not checked yet'] });
    this.monitor = new HealthMonitor({
      probe: (signal) => this.probe(signal),
      firstCheckDelayMs,
      recheckMs,
      onScheduled: (at) => {
        services.health.nextCheckAt = at;
      },
      describeError: (error) => services.describeFailure(error).message,
    });
    this.subscriptions.push(
      services.onDidChangeConnection(() => this.monitor.restart()),
      services.health.onDidChange((change) => this.changed(change)),
    );
    this.monitor.start();
  }

  /** Checks both APIs now (a check already running is shared), showing that it checks. */
  async check(): Promise<HealthSummary> {
    this.checkingOnRequest = true;
    this.render(this.last ?? this.services.health.summary());
    try {
      return await this.monitor.check();
    } finally {
      this.checkingOnRequest = false;
      if (this.last) this.render(this.last);
    }
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

  /** A call or a check changed what is known: redraw now, and check again soon if an API fails. */
  private changed(change: HealthChange): void {
    if (this.disposed) return;
    if (change.current.state === 'failing' && change.current.failure.retryable) {
      this.monitor.checkSoon(change.current.failure.retryInMs);
    }
    if (!this.configured()) return;
    this.last = this.services.health.summary();
    this.render(this.last);
  }

  private configured(): boolean {
    const settings = this.services.settings.current;
    return Boolean(settings.trainingApiUrl || settings.inferenceApiUrl);
  }

  private async probe(signal: AbortSignal): Promise<HealthSummary> {
    const settings = this.services.settings.current;
    if (!this.configured()) {
      if (!this.disposed) this.item.hide();
      return { level: 'unknown', text: 'RL Studio', detail: [] };
    }
    const health = this.services.health;
    const client = await this.services.client();
    const signedIn = await this.services.credentials.isSignedIn();
    if (signal.aborted) throw new Error('The health check was stopped.');
    const ask = async (api: PlatformApi, call: () => Promise<unknown>, system?: (value: unknown) => SystemCheckLike): Promise<void> => {
      const started = Date.now();
      try {
        const value = await call();
        if (signal.aborted) return;
        health.noteAnswer(api, { ms: Date.now() - started, ...(system ? { system: system(value) } : {}) });
      } catch (error) {
        if (signal.aborted) return;
        const failure = this.services.describeFailure(error);
        // A check's own failure always counts: it asked the API itself, and "answered" means reachable.
        if (verdictOf(failure) !== 'none') health.noteFailure(api, failure);
      }
    };
    await Promise.all([
      settings.trainingApiUrl
        ? ask(
            'training',
            () => client.training.systemCheck({ signal }),
            (value) => value as SystemCheckLike,
          )
        : Promise.resolve(health.skip('training', 'not configured')),
      !settings.inferenceApiUrl
        ? Promise.resolve(health.skip('inference', 'not configured'))
        : signedIn
          ? ask('inference', () => client.inference.listModels({ signal }))
          : Promise.resolve(health.skip('inference', 'sign in to check')),
    ]);
    const summary = health.summary();
    // Stopped meanwhile (disposed, or the connection changed): the answer is stale, the item may be gone.
    if (signal.aborted) return summary;
    this.last = summary;
    this.render(summary);
    return summary;
  }

  private render(summary: HealthSummary): void {
    if (this.disposed) return;
    const checking = this.checkingOnRequest;
    const icon = checking ? '$(sync~spin)' : summary.level === 'healthy' ? '$(pass)' : summary.level === 'degraded' ? '$(warning)' : summary.level === 'down' ? '$(error)' : '$(circle-outline)';
    this.item.text = `${icon} ${summary.text}`;
    this.item.backgroundColor =
      summary.level === 'down' ? new vscode.ThemeColor('statusBarItem.errorBackground') : summary.level === 'degraded' ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    const tooltip = new vscode.MarkdownString(undefined, true);
    tooltip.isTrusted = false;
    tooltip.appendMarkdown(`**RL Studio** — ${checking ? 'checking…' : summary.level}\n\n`);
    tooltip.appendMarkdown(summary.detail.map((line) => (line.startsWith('- ') ? line : `\n${line}\n`)).join('\n'));
    tooltip.appendMarkdown('\n\n---\nClick to check again.');
    this.item.tooltip = tooltip;
    this.item.accessibilityInformation = { label: `RL Studio health: ${summary.level}. ${summary.text}` };
    this.item.show();
  }
}
