import * as vscode from 'vscode';
import type { Checkpoint } from '../../../platform/client/types';
import { errorMessage } from '../../../platform/client/errorMessage';
import { claimOrActHere, releaseClaim, sweepClaims } from '../../../platform/host/onceAcrossWindows';
import type { Services } from '../../../platform/host/services';
import { clampSetting, featureSetting } from '../../../platform/host/settings';
import { checkpointModelId } from '../../../platform/kit/checkpointIds';
import { rolloutThresholds } from '../../../rollouts';
import { modelWithNewCheckpoints, type RegisteredViews, type RunMetric } from '../../../training';
import { canaryBudgetBounds, CheckpointAllowance, checkpointPlan, HourlySpend, type CanaryBudgetLimits } from '../../model/canary/canaryBudget';
import { canaryParameters, newSteps, type CanaryPin } from '../../model/canary/canaryPins';
import { canarySeries, canaryVerdict, type CanaryVerdict } from '../../model/canary/canaryVerdict';
import type { EvalModelRef, EvalRunFile } from '../../model/evalModel';
import { primaryScorer } from '../../model/evalRun';
import { evalSetHash } from '../../model/evalSet';
import { leaderboard } from '../../model/statistics';
import { evalReportViewType } from '../../protocol';
import { createEvalRun, evalConcurrency } from '../evalRunner';
import type { EvalRuns } from '../evalRuns';
import { readEvalSet } from '../evalSetFiles';
import { canaryResultsUri, existingResults } from '../evaluateCheckpoints';
import { noPrograms } from '../programAllowances';
import { runFolder } from '../startEvaluation';
import { CanaryPinStore } from './canaryPinStore';
import { describeVerdict } from '../../model/canary/canaryText';

/** How often each pinned model's newest checkpoints are looked at, besides when a followed job reports one. */
export const lookIntervalMs = 60_000;
/** A job's report of a new checkpoint is followed by a look this long after (several reports make one look). */
const nudgeDelayMs = 2_000;
/** A canary's evaluation asks at most this many requests at once: it runs beside the person's own work. */
const maxCanaryConcurrency = 4;
/** Checkpoints of one results file at most: the best and the newest. */
const maxCheckpointsPerFile = 32;
/** Claims of a checkpoint's evaluation (one window of several does it) are forgotten after a week. */
const claimLifetimeMs = 7 * 24 * 60 * 60 * 1000;

/** What a canary drop hands to the alert rules. */
export interface CanaryDrop {
  modelId: string;
  modelName: string;
  step: number;
  message: string;
  verdict: CanaryVerdict;
}

export interface CanaryHooks {
  /** The sidebar's job service and charts, loaded when a canary first runs. */
  sidebar: () => RegisteredViews;
  /** Runs the alert rules of a drop. */
  dropped?: (drop: CanaryDrop) => void;
}

/**
 * Evaluates each new checkpoint of the models with a pinned canary, by itself: it looks at a
 * model's newest checkpoints every minute and soon after a followed job reports one, evaluates the
 * new ones on the pinned set (its first samples, as many as the per-checkpoint budget pays for;
 * greedy, one answer each) into the canary's results file, which the evaluation report opens, and
 * tells the person when a checkpoint scores below the best before it beyond the set's noise or
 * when many of its answers are truncated, empty or repeating. Every request is paid from the budget
 * first (per checkpoint and per hour), and one window of several evaluates each checkpoint.
 */
export class CanaryService implements vscode.Disposable {
  readonly pins: CanaryPinStore;
  private readonly hour = new HourlySpend();
  private readonly changed = new vscode.EventEmitter<string>();
  /** Fires with a model id when its canary's figures changed. */
  readonly onDidChange = this.changed.event;
  private readonly evaluated = new vscode.EventEmitter<CanaryVerdict & { modelId: string }>();
  /** Fires when a checkpoint's canary evaluation ended. */
  readonly onDidEvaluate = this.evaluated.event;
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly nudges = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly series = new Map<string, Record<string, RunMetric>>();
  private readonly toldProblems = new Set<string>();
  private timer: ReturnType<typeof setInterval> | undefined;
  private queue: Promise<void> = Promise.resolve();
  /** Models whose look is queued and not begun (at most one each). */
  private readonly queued = new Set<string>();
  private started = false;
  private readonly claims: vscode.Uri;

  constructor(
    private readonly services: Services,
    private readonly runs: EvalRuns,
    private readonly hooks: CanaryHooks,
  ) {
    this.pins = new CanaryPinStore(services.context.workspaceState, () => services.settings.current.trainingApiUrl);
    this.claims = vscode.Uri.joinPath(services.context.globalStorageUri, 'canary-claims');
  }

  /** Starts looking at the pinned models (once; nothing happens while none is pinned). */
  start(): void {
    if (this.started || this.pins.list().length === 0) return;
    this.started = true;
    const sidebar = this.hooks.sidebar();
    this.subscriptions.push(
      sidebar.jobService.onDidChangeJob((change) => {
        const modelId = modelWithNewCheckpoints(this.services, change);
        if (modelId && this.pins.get(modelId)) this.nudge(modelId);
      }),
      sidebar.runCharts.addSeriesSource({ metricsOf: (modelId) => this.series.get(modelId), onDidChange: this.onDidChange }),
    );
    this.timer = setInterval(() => this.lookAtAll(), lookIntervalMs);
    void sweepClaims(this.claims.fsPath, claimLifetimeMs).catch(() => undefined);
    for (const pin of this.pins.list()) void this.refreshSeries(pin);
    this.lookAtAll();
  }

  /** Looks at one model now (or all), and resolves when what it found was evaluated. */
  look(modelId?: string): Promise<void> {
    const pins = this.pins.list().filter((pin) => modelId === undefined || pin.modelId === modelId);
    // A model already waiting for its look is not queued twice: a slow evaluation cannot pile looks up behind it.
    for (const pin of pins) {
      if (this.queued.has(pin.modelId)) continue;
      this.queued.add(pin.modelId);
      this.queue = this.queue
        .then(() => {
          this.queued.delete(pin.modelId);
          return this.lookAt(pin.modelId);
        })
        .catch(() => undefined);
    }
    return this.queue;
  }

  /** The budget as the settings give it, each within its bounds. */
  limits(): CanaryBudgetLimits {
    return {
      perCheckpoint: clampSetting(featureSetting('canary.requestsPerCheckpoint'), canaryBudgetBounds.perCheckpoint),
      perHour: clampSetting(featureSetting('canary.requestsPerHour'), canaryBudgetBounds.perHour),
    };
  }

  /** Requests the canaries sent in the last hour. */
  spentThisHour(): number {
    return this.hour.spent(Date.now());
  }

  /** A pin removed: its figures leave the charts (its results file stays). */
  forget(modelId: string): void {
    this.series.delete(modelId);
    this.changed.fire(modelId);
  }

  dispose(): void {
    if (this.timer) clearInterval(this.timer);
    for (const timer of this.nudges.values()) clearTimeout(timer);
    for (const subscription of this.subscriptions) subscription.dispose();
    this.changed.dispose();
    this.evaluated.dispose();
  }

  private lookAtAll(): void {
    void this.look();
  }

  private nudge(modelId: string): void {
    if (this.nudges.has(modelId)) return;
    this.nudges.set(
      modelId,
      setTimeout(() => {
        this.nudges.delete(modelId);
        void this.look(modelId);
      }, nudgeDelayMs),
    );
  }

  private async lookAt(modelId: string): Promise<void> {
    const pin = this.pins.get(modelId);
    if (!pin) return;
    let listed: Checkpoint[];
    try {
      const client = await this.services.client();
      listed = (await client.training.listCheckpoints(modelId, { order: 'desc', limit: 10 })).data;
    } catch (error) {
      this.services.log.warn(`canary of ${pin.modelName}: its checkpoints could not be listed (${this.services.describeFailure(error).message}); it looks again in a minute`);
      return;
    }
    const byStep = new Map(listed.map((checkpoint) => [checkpoint.step, checkpoint]));
    const { evaluate, skipped } = newSteps([...byStep.keys()], pin.seenStep);
    if (skipped.length > 0) this.services.log.info(`canary of ${pin.modelName}: steps ${skipped.join(', ')} came with newer ones and are not evaluated`);
    for (const step of evaluate) {
      const outcome = await this.evaluate(pin, byStep.get(step)!);
      if (outcome === 'later') return;
      await this.pins.seen(modelId, step);
    }
  }

  /** Evaluates one checkpoint; 'later' when it cannot now (the hour's budget, a run of the file going). */
  private async evaluate(pin: CanaryPin, checkpoint: Checkpoint): Promise<'done' | 'later' | 'given up'> {
    const setUri = vscode.Uri.parse(pin.setUri);
    const model = this.services.remembered.models.get(pin.modelId);
    const id = model && checkpointModelId(model, checkpoint.step);
    if (!id) {
      this.problem(pin, 'the model is no longer in the Models view (add it again to go on)');
      return 'later';
    }
    let set;
    try {
      set = await readEvalSet(setUri);
    } catch (error) {
      this.problem(pin, `its eval set ${vscode.workspace.asRelativePath(setUri)} cannot be read (${errorMessage(error)})`);
      return 'given up';
    }
    const limits = this.limits();
    const plan = checkpointPlan(set.samples.length, pin.scorers, limits, this.hour, Date.now());
    if (plan.samples === 0) {
      this.problem(
        pin,
        set.samples.length === 0 ? `its eval set ${vscode.workspace.asRelativePath(setUri)} has no sample` : `a budget of ${limits.perCheckpoint} requests per checkpoint pays for no answer`,
      );
      return 'given up';
    }
    if (plan.waitUntil !== undefined) {
      this.services.log.info(
        `canary of ${pin.modelName}: step ${checkpoint.step} waits until ${new Date(plan.waitUntil).toLocaleTimeString()}: the hour's budget of ${limits.perHour} requests has ${limits.perHour - this.spentThisHour()} left and it needs ${plan.cost}`,
      );
      return 'later';
    }
    const resultsUri = canaryResultsUri(setUri, pin.modelName);
    if (this.runs.get(resultsUri)) return 'later';
    const claim = `${this.services.settings.current.trainingApiUrl}\n${pin.modelId}:${checkpoint.step}:${pin.setUri}`;
    if (!(await this.claim(claim))) {
      this.services.log.info(`canary of ${pin.modelName}: step ${checkpoint.step} is evaluated by another window`);
      return 'done';
    }
    const samples = set.samples.slice(0, plan.samples);
    const existing = await this.existingFor(resultsUri, evalSetHash(samples));
    const ref: EvalModelRef = { id, label: `step ${checkpoint.step}`, kind: 'checkpoint', api: 'training', step: checkpoint.step, trainingModelId: pin.modelId, metrics: { ...checkpoint.metrics } };
    const scorer = primaryScorer(pin.scorers);
    const allowance = new CheckpointAllowance(limits, this.hour, () => Date.now());
    const evaluation = createEvalRun(
      this.services,
      {
        samples,
        models: [...keptCheckpoints(existing, pin.modelId, scorer, checkpoint.step), ref],
        scorers: pin.scorers,
        parameters: canaryParameters,
        setPath: vscode.workspace.asRelativePath(setUri, false),
        ...(existing ? { existing } : {}),
      },
      resultsUri,
      runFolder(setUri),
      noPrograms,
      { beforeRequest: () => allowance.take(), concurrency: Math.min(maxCanaryConcurrency, evalConcurrency()) },
    );
    try {
      const finished = await this.runs.run(resultsUri, evaluation.run);
      const verdict = canaryVerdict(finished, ref, scorer, rolloutThresholds().repetitionRatio);
      this.services.log.info(`canary of ${pin.modelName}: step ${checkpoint.step} evaluated with ${allowance.spent} requests (${this.spentThisHour()} this hour)`);
      await this.refreshSeries(pin, finished);
      if (verdict) this.tell(pin, verdict, resultsUri);
      return 'done';
    } catch (error) {
      this.services.log.warn(`canary of ${pin.modelName}: step ${checkpoint.step} could not be evaluated (${this.services.describeFailure(error).message})`);
      await releaseClaim(this.claims.fsPath, claim);
      return 'later';
    } finally {
      evaluation.dispose();
    }
  }

  /**
   * The canary's results file as it stands, when its checkpoints were asked the same samples; a
   * file of other samples (the set changed) is moved aside, kept, and the canary starts a new one.
   */
  private async existingFor(uri: vscode.Uri, samplesHash: string): Promise<EvalRunFile | undefined> {
    const existing = await existingResults(uri, this.services);
    if (!existing || existing.set.hash === samplesHash) return existing;
    const aside = uri.with({ path: uri.path.replace(/\.rleval\.json$/, `.before-${new Date().toISOString().replace(/[:.]/g, '-')}.rleval.json`) });
    try {
      await vscode.workspace.fs.rename(uri, aside);
      this.services.log.info(`canary: the eval set changed; the results of its earlier samples are kept in ${aside.fsPath}`);
      return undefined;
    } catch (error) {
      this.services.log.warn(`canary: ${uri.fsPath} could not be moved aside (${errorMessage(error)}); its answers are kept in it`);
      return existing;
    }
  }

  private tell(pin: CanaryPin, verdict: CanaryVerdict, resultsUri: vscode.Uri): void {
    this.evaluated.fire({ ...verdict, modelId: pin.modelId });
    const text = describeVerdict(pin.modelName, verdict);
    this.services.log.info(text);
    if (!verdict.drop && !verdict.flagged) return;
    const openReport = { title: 'Open Report', run: () => vscode.commands.executeCommand('vscode.openWith', resultsUri, evalReportViewType) };
    const model = this.services.remembered.models.get(pin.modelId);
    const openCharts = { title: 'Open Training Charts', run: () => vscode.commands.executeCommand('rlStudio.openModelTraining', model ? { kind: 'trainingModel', model } : undefined) };
    this.services.dialogs.warn(this.services.log.redact(text), openReport, openCharts);
    if (verdict.drop) this.hooks.dropped?.({ modelId: pin.modelId, modelName: pin.modelName, step: verdict.step, message: text, verdict });
  }

  private async refreshSeries(pin: CanaryPin, run?: EvalRunFile): Promise<void> {
    const file = run ?? (await existingResults(canaryResultsUri(vscode.Uri.parse(pin.setUri), pin.modelName), this.services));
    if (!file) return;
    const { score, flagged } = canarySeries(file, primaryScorer(pin.scorers), rolloutThresholds().repetitionRatio);
    this.series.set(pin.modelId, { [`canary: ${primaryScorer(pin.scorers)}`]: score, 'canary: flagged answers': flagged });
    this.changed.fire(pin.modelId);
  }

  /** A canary that cannot run says why, once per model and reason in a window; it tries again at the next checkpoint. */
  private problem(pin: CanaryPin, reason: string): void {
    const text = `The canary of ${pin.modelName} is not evaluating: ${reason}. It tries again with the next checkpoint.`;
    this.services.log.warn(text);
    if (this.toldProblems.has(text) || this.toldProblems.size > 100) return;
    this.toldProblems.add(text);
    this.services.dialogs.warn(this.services.log.redact(text));
  }

  /** True for the one window that claims this evaluation first (and here too when claims cannot be made). */
  private claim(key: string): Promise<boolean> {
    return claimOrActHere(this.claims.fsPath, key, (error) => this.services.log.warn(`a canary evaluation could not be claimed (${errorMessage(error)}); it runs in this window`));
  }
}

/** The checkpoints a canary's file keeps beside a new one: the best so far and the newest others, `maxCheckpointsPerFile` in all. */
function keptCheckpoints(existing: EvalRunFile | undefined, modelId: string, scorer: string, newStep: number): EvalModelRef[] {
  if (!existing) return [];
  const mine = existing.models.filter((model) => model.kind === 'checkpoint' && model.trainingModelId === modelId && model.step !== undefined && model.step !== newStep);
  if (mine.length < maxCheckpointsPerFile) return mine;
  const best = leaderboard(existing, scorer).find((row) => mine.some((model) => model.id === row.model))?.model;
  const newest = [...mine].sort((a, b) => b.step! - a.step!).slice(0, maxCheckpointsPerFile - 2);
  const bestRef = mine.find((model) => model.id === best);
  const kept = bestRef && !newest.includes(bestRef) ? [...newest, bestRef] : newest;
  return kept.sort((a, b) => a.step! - b.step!);
}
