import * as vscode from 'vscode';
import { JobNoticeRules, noticeText, type JobNotice, type JobNoticeKind } from '../../model/jobNotices';
import type { JobRecord } from '../../model/jobTracker';
import { errorMessage } from '../../../platform/client/errorMessage';
import { claimOrActHere, sweepClaims } from '../../../platform/host/onceAcrossWindows';
import { movingJobsKey } from '../../../platform/host/rememberedItems';
import { featureSetting } from '../../../platform/host/settings';
import type { Services } from '../../../platform/host/services';
import type { JobService } from './jobService';
import type { JobDetailsPanels } from './jobDetailsPanel';

/** How often moving jobs are checked for a stall. */
const stallCheckMs = 60_000;
/** A claim older than this is cleared at start: the news it stood for is long told. */
const claimLifetimeMs = 14 * 24 * 3600_000;

const settingOf: Record<JobNoticeKind, 'notifications.jobFinished' | 'notifications.jobFailed' | 'notifications.jobStalled'> = {
  finished: 'notifications.jobFinished',
  failed: 'notifications.jobFailed',
  stalled: 'notifications.jobStalled',
};

/**
 * Tells the person when a followed job finishes, fails or stalls (jobNotices.ts decides when),
 * once across every open window: the first window to claim a piece of news (an exclusive file in
 * the extension's global storage, which all windows share) shows it; the others stay quiet. Each
 * kind can be turned off in the settings.
 */
export class JobNotifications implements vscode.Disposable {
  private rules: JobNoticeRules;
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly timer: ReturnType<typeof setInterval>;
  private readonly claims: vscode.Uri;

  constructor(
    private readonly services: Services,
    private readonly jobs: JobService,
    private readonly panels: JobDetailsPanels,
  ) {
    this.claims = vscode.Uri.joinPath(services.context.globalStorageUri, 'job-notices');
    this.rules = this.createRules();
    this.subscriptions.push(
      jobs.onDidChangeJob((change) => this.tell(this.rules.observe(change.record, change.newEvents))),
      services.remembered.jobs.onDidChange(() => this.forgetRemoved()),
      services.onDidChangeConnection(() => {
        this.rules = this.createRules();
      }),
    );
    this.timer = setInterval(() => this.tell(this.rules.stalls(this.records())), stallCheckMs);
    this.timer.unref?.();
    void sweepClaims(this.claims.fsPath, claimLifetimeMs);
  }

  dispose(): void {
    clearInterval(this.timer);
    for (const subscription of this.subscriptions) subscription.dispose();
  }

  private createRules(): JobNoticeRules {
    const key = movingJobsKey(this.services.settings.current.trainingApiUrl);
    const state = this.services.context.globalState;
    return new JobNoticeRules({
      now: () => Date.now(),
      moving: state.get<string[]>(key, []).filter((id): id is string => typeof id === 'string'),
      onMovingChange: (moving) => void state.update(key, moving),
    });
  }

  private records(): JobRecord[] {
    return this.jobs
      .jobs()
      .map((job) => this.jobs.record(job.id))
      .filter((record): record is JobRecord => record !== undefined);
  }

  private forgetRemoved(): void {
    const followed = new Set(this.jobs.jobs().map((job) => job.id));
    const key = movingJobsKey(this.services.settings.current.trainingApiUrl);
    for (const id of this.services.context.globalState.get<string[]>(key, [])) if (!followed.has(id)) this.rules.forget(id);
  }

  private tell(notices: JobNotice[]): void {
    for (const notice of notices) void this.tellOnce(notice);
  }

  private async tellOnce(notice: JobNotice): Promise<void> {
    if (featureSetting(settingOf[notice.kind]) === false) return;
    if (!(await this.claim(notice.key))) return;
    const label = this.services.remembered.jobs.get(notice.jobId)?.label ?? notice.jobId;
    const text = noticeText(notice, label);
    this.services.log.info(text);
    const details = { title: 'Open Job Details', run: () => this.panels.show(notice.jobId) };
    const explain = { title: 'Explain with @rlstudio', run: () => openChat(`@rlstudio /explain job ${notice.jobId}`) };
    const evaluate = { title: 'Evaluate New Checkpoints', run: () => vscode.commands.executeCommand('rlStudio.evaluateCheckpoints') };
    if (notice.kind === 'failed') this.services.dialogs.error(text, details, explain);
    else if (notice.kind === 'stalled') this.services.dialogs.warn(text, details, explain);
    else this.services.dialogs.info(text, details, evaluate);
  }

  /** True for the one window that claims this news first (and here too when claims cannot be made: better twice than never). */
  private claim(key: string): Promise<boolean> {
    return claimOrActHere(this.claims.fsPath, `${this.services.settings.current.trainingApiUrl}\n${key}`, (error) =>
      this.services.log.warn(`A job notification could not be claimed (${errorMessage(error)}); it is shown in this window.`),
    );
  }
}

function openChat(query: string): Thenable<unknown> {
  return vscode.commands.executeCommand('workbench.action.chat.open', { query });
}
