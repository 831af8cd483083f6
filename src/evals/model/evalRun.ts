/**
 * One evaluation run, start to end: what is still to ask (runPlan.ts), the requests at a bounded
 * concurrency with back-off (scheduler.ts), each answer scored (scoring.ts), and the results file
 * written as answers come (at most every `saveEveryMs`, and at the end) so a run that is stopped or
 * crashes keeps what it got. Listeners get the new answers in batches, for the report. No `vscode`:
 * the editor passes how to ask a model and how to write the file.
 */
import type { ChatCompletionRequest } from '../../platform/client/types';
import type { AnswerRecord, EvalModelRef, EvalRunFile } from './evalModel';
import type { NamedScorer } from '../../platform/scoring/scorerSpec';
import { evalSetHash } from './evalSet';
import { mergeAnswers, serializeRunFile } from './resultsFile';
import { planRun, type PlanInput, type WorkItem } from './runPlan';
import { runEvaluations, type SchedulerProgress } from '../../platform/client/requestScheduler';
import { scoreWithAll, type ScoringContext } from '../../platform/scoring/scoring';

export interface ModelAnswer {
  text: string;
  finishReason?: string;
  usage?: { promptTokens: number; completionTokens: number };
}

export interface EvalRunDependencies {
  /** Sends one chat completion to the API that serves `model`. */
  complete(model: EvalModelRef, request: ChatCompletionRequest, signal: AbortSignal): Promise<ModelAnswer>;
  /** What the scorers need besides the run's seed and signal (regex worker, judge requests, command context). */
  scoring: Omit<ScoringContext, 'signal' | 'seed'>;
  /** Writes the results file's text. */
  save(text: string): Promise<void>;
  /** A failure in words, for the answer's `error`. */
  describeFailure(error: unknown): string;
  now?: () => number;
}

export interface EvalRunInput extends PlanInput {
  /** The eval set's path relative to the workspace, as the results file names it. */
  setPath: string;
  concurrency?: number;
  /** Milliseconds between writes of the results file while answers come (default 2,000). */
  saveEveryMs?: number;
  /** Milliseconds between batches told to listeners (default 250). */
  announceEveryMs?: number;
}

export interface EvalRunProgress extends SchedulerProgress {
  /** Answers reused from the results file. */
  reused: number;
}

export type EvalRunListener = (answers: AnswerRecord[], progress: EvalRunProgress) => void;

export class EvalRun {
  private run: EvalRunFile;
  private readonly listeners = new Set<EvalRunListener>();
  private pending: AnswerRecord[] = [];
  private progress: EvalRunProgress = { done: 0, failed: 0, total: 0, inFlight: 0, reused: 0 };
  private lastAnnounce = 0;
  private lastSave = 0;
  private saving: Promise<void> = Promise.resolve();
  private readonly now: () => number;

  constructor(
    private readonly input: EvalRunInput,
    private readonly deps: EvalRunDependencies,
  ) {
    const clock = deps.now;
    this.now = clock ? () => clock() : () => Date.now();
    const stamp = new Date(this.now()).toISOString();
    this.run = {
      kind: 'rl-studio-eval',
      version: 1,
      set: { path: input.setPath, hash: evalSetHash(input.samples), samples: input.samples.length },
      scorers: [...input.scorers],
      parameters: { ...input.parameters },
      models: [...input.models],
      answers: [],
      createdAt: input.existing?.createdAt ?? stamp,
      updatedAt: stamp,
    };
  }

  onAnswers(listener: EvalRunListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The run as it stands: the file's answers reused and every answer got so far. */
  get current(): EvalRunFile {
    return this.run;
  }

  /** Asks what is missing and scores it; resolves with the run as written, also when cancelled. */
  async start(signal?: AbortSignal): Promise<EvalRunFile> {
    const plan = planRun(this.input);
    const order = this.input.samples.map((sample) => sample.id);
    this.run = mergeAnswers(this.run, plan.reused, { sampleOrder: order, updatedAt: this.stamp() });
    this.progress = { done: 0, failed: 0, total: plan.items.length, inFlight: 0, reused: plan.reused.length };
    // Answers kept whose scores lack a scorer of this run are scored again, without a request.
    for (const { answer, scorers } of plan.toScore) {
      if (signal?.aborted) break;
      const sample = this.input.samples.find((candidate) => candidate.id === answer.sample);
      if (!sample || answer.text === undefined) continue;
      const added = await scoreWithAll(this.input.scorers, sample, answer.text, this.scoringContext(signal), scorers);
      this.add({ ...answer, scores: { ...answer.scores, ...added } });
    }
    await runEvaluations<WorkItem, AnswerRecord>({
      items: plan.items,
      ...(this.input.concurrency !== undefined ? { concurrency: this.input.concurrency } : {}),
      ...(signal ? { signal } : {}),
      ask: (item, itemSignal) => this.ask(item, itemSignal),
      onResult: (item, outcome) => this.add(outcome.ok ? outcome.value : this.failed(item, outcome.error)),
      onProgress: (progress) => {
        this.progress = { ...progress, reused: plan.reused.length };
      },
    });
    this.flush(true);
    await this.saving;
    return this.run;
  }

  private async ask(item: WorkItem, signal: AbortSignal): Promise<AnswerRecord> {
    const { parameters } = this.input;
    const started = this.now();
    const request: ChatCompletionRequest = {
      model: item.model.id,
      messages: item.sample.messages,
      temperature: parameters.temperature,
      max_tokens: parameters.maxTokens,
      seed: item.seed,
      ...(parameters.topP !== undefined ? { top_p: parameters.topP } : {}),
    };
    const answer = await this.deps.complete(item.model, request, signal);
    const latencyMs = this.now() - started;
    const scores = await scoreWithAll(this.input.scorers, item.sample, answer.text, this.scoringContext(signal));
    return {
      model: item.model.id,
      sample: item.sample.id,
      draw: item.draw,
      key: item.key,
      text: answer.text,
      ...(answer.finishReason ? { finishReason: answer.finishReason } : {}),
      scores,
      latencyMs,
      ...(answer.usage ? { usage: answer.usage } : {}),
    };
  }

  private failed(item: WorkItem, error: unknown): AnswerRecord {
    return { model: item.model.id, sample: item.sample.id, draw: item.draw, key: item.key, error: this.deps.describeFailure(error), scores: {} };
  }

  private scoringContext(signal: AbortSignal | undefined): ScoringContext {
    return { ...this.deps.scoring, ...(signal ? { signal } : {}), seed: this.input.parameters.seed };
  }

  private add(answer: AnswerRecord): void {
    this.pending.push(answer);
    this.flush(false);
  }

  /** Merges the pending answers into the run, tells listeners, and writes the file when it is due. */
  private flush(final: boolean): void {
    const now = this.now();
    if (!final && now - this.lastAnnounce < (this.input.announceEveryMs ?? 250)) return;
    this.lastAnnounce = now;
    const batch = this.pending;
    this.pending = [];
    if (batch.length > 0) this.run = mergeAnswers(this.run, batch, { sampleOrder: this.input.samples.map((sample) => sample.id), updatedAt: this.stamp() });
    for (const listener of this.listeners) listener(batch, { ...this.progress });
    if (final || now - this.lastSave >= (this.input.saveEveryMs ?? 2_000)) {
      this.lastSave = now;
      const text = serializeRunFile(this.run);
      // One write at a time, in order: the last one written is the newest.
      this.saving = this.saving.then(() => this.deps.save(text)).catch(() => undefined);
    }
  }

  private stamp(): string {
    return new Date(this.now()).toISOString();
  }
}

/** The scorer the leaderboard ranks by: the first of the run. */
export function primaryScorer(scorers: readonly NamedScorer[]): string {
  return scorers[0]?.name ?? '';
}
