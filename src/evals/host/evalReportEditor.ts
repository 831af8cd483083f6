import * as path from 'node:path';
import * as vscode from 'vscode';
import { countProvenance, digestInSlices, type AnswerProvenance } from '../model/answerProvenance';
import type { EvalRunFile, LeaderboardRow } from '../model/evalModel';
import { primaryScorer } from '../model/evalRun';
import { answersPerPage, previewAnswer } from '../model/reportPaging';
import { openRunFile, runFileSizeProblem, type RunFileReader } from '../model/resultsFileLoader';
import { RunFileAnswers } from '../model/runFileAnswers';
import { leaderboard } from '../model/statistics';
import { RpcEndpoint, type Handlers } from '../../platform/pages/rpc';
import { isCount, ownValue, params, ProtocolError, type WireMessage } from '../../platform/pages/wire';
import { previewChars, type ReportHostEvent, type ReportHostMethods, type ReportPageEvent, type ReportPageMethods, type ReportSnapshot } from '../protocol';
import type { Services } from '../../platform/host/services';
import { askAboutProvenance } from './leaderboardProvenance';
import { reportSamples } from './reportSamples';
import { useInChat } from '../../training';
import { loadWebviewPage } from '../../platform/pages/host/panelOptions';
import { chartFileParams } from '../../platform/pages/chartFile';
import { saveChartFile } from '../../platform/pages/host/saveChartFile';
import { AnswerProvenanceStore } from './answerProvenanceStore';
import type { EvalRuns } from './evalRuns';
import { deleteOtherCheckpoints } from './pruneCheckpoints';
import { retryFromResults } from './retryFromResults';

type PageChannel = RpcEndpoint<ReportPageMethods, ReportHostMethods, ReportHostEvent, ReportPageEvent>;

/** The most keys a retry may name (a run has at most evalLimits' samples x models x draws answers). */
const maxRetryKeys = 100_000;

function preview(answer: EvalRunFile['answers'][number]): ReturnType<typeof previewAnswer> {
  return previewAnswer(answer, previewChars);
}

/**
 * The evaluation report: a results file (`*.rleval.json`) opened read-only. The page is drawn from
 * the file, or from the run writing it while one goes, with its answers pushed as they come. A file
 * is read off the host's thread (resultsFileLoader) and its answers go to the page a page at a time.
 */
export class EvalReportProvider implements vscode.CustomReadonlyEditorProvider {
  private readonly provenance: AnswerProvenanceStore;
  /** Reports open now, for the extension's tests. */
  readonly panels = new Set<EvalReportPanel>();

  constructor(
    private readonly services: Services,
    private readonly runs: EvalRuns,
  ) {
    // Records the answers of every run from now on, whether its report is open or not.
    this.provenance = new AnswerProvenanceStore(services, runs);
    services.context.subscriptions.push(this.provenance);
  }

  openCustomDocument(uri: vscode.Uri): vscode.CustomDocument {
    return { uri, dispose: () => undefined };
  }

  resolveCustomEditor(document: vscode.CustomDocument, panel: vscode.WebviewPanel): void {
    const opened = new EvalReportPanel(this.services, this.runs, this.provenance, document.uri, panel);
    this.panels.add(opened);
    panel.onDidDispose(() => this.panels.delete(opened));
  }
}

/** What the report holds of the file: its reader, the leaderboard, and which answers were produced here (known a little later). */
interface Opened {
  reader: RunFileReader;
  leaderboard: LeaderboardRow[];
  /** Digested on first ask (once per opening), so a report that only pages never pays for it. */
  provenance(): Promise<{ counts: AnswerProvenance; digests: string[]; producedHere: ReadonlySet<string> } | undefined>;
}

/** Events a report keeps for the extension's tests (only while they run). */
const maxEventsKept = 200;

export class EvalReportPanel {
  private readonly channel: PageChannel;
  private readonly handlerTable: Handlers<ReportHostMethods>;
  /** What was sent to the page, newest last, while the extension's tests run. */
  readonly emitted: ReportHostEvent[] = [];
  private readonly subscriptions: vscode.Disposable[] = [];
  private run: EvalRunFile | undefined;
  private opened: Promise<Opened> | undefined;
  /** Checkpoints of the report the platform no longer lists (model ids). */
  private readonly gone = new Set<string>();
  private stopListening: (() => void) | undefined;
  /** Drawings of the whole report sent so far, and the one being made: they go out in order. */
  private drawings = 0;
  private redrawing: Promise<void> = Promise.resolve();

  constructor(
    private readonly services: Services,
    private readonly runs: EvalRuns,
    private readonly provenanceStore: AnswerProvenanceStore,
    readonly uri: vscode.Uri,
    panel: vscode.WebviewPanel,
  ) {
    this.handlerTable = this.handlers();
    this.channel = new RpcEndpoint<ReportPageMethods, ReportHostMethods, ReportHostEvent, ReportPageEvent>({
      post: (message: WireMessage) => void panel.webview.postMessage(message),
      handlers: this.handlerTable,
      onProtocolError: (problem) => services.log.warn(`evaluation report page: ${problem}`),
    });
    loadWebviewPage(panel.webview, services.context.extensionUri, 'evalReport', path.posix.basename(uri.path));
    this.subscriptions.push(
      panel.webview.onDidReceiveMessage((message: unknown) => this.channel.receive(message)),
      runs.onDidStart((started) => {
        if (started.toString() === uri.toString()) this.follow();
      }),
    );
    panel.onDidDispose(() => {
      this.stopListening?.();
      void this.opened?.then(
        (opened) => opened.reader.dispose(),
        () => undefined,
      );
      for (const subscription of this.subscriptions) subscription.dispose();
      this.channel.dispose();
    });
    this.follow();
  }

  /** Asks the report what the page asks, as the page would (the extension's tests). */
  request<K extends keyof ReportHostMethods & string>(method: K, params: ReportHostMethods[K]['params']): Promise<ReportHostMethods[K]['result']> {
    return Promise.resolve(this.handlerTable[method](params) as ReportHostMethods[K]['result'] | Promise<ReportHostMethods[K]['result']>);
  }

  private emit(event: ReportHostEvent): void {
    if (this.services.testMode) {
      this.emitted.push(event);
      if (this.emitted.length > maxEventsKept) this.emitted.shift();
    }
    this.channel.emit(event);
  }

  /** Pushes the answers of the run writing this file, while one goes. */
  private follow(): void {
    const active = this.runs.get(this.uri);
    if (!active) return;
    this.stopListening?.();
    let drawn = false;
    this.stopListening = active.run.onAnswers((answers, progress) => {
      this.run = active.run.current;
      // What was opened before is stale now: the next request reads the run as it stands.
      const stale = this.opened;
      this.opened = undefined;
      void stale?.then(
        (opened) => opened.reader.dispose(),
        () => undefined,
      );
      const scorer = primaryScorer(this.run.scorers);
      const ended = progress.done + progress.failed >= progress.total && progress.inFlight === 0;
      this.emit({
        type: 'answers',
        answers: answers.map(preview),
        leaderboard: leaderboard(this.run, scorer),
        ...(ended ? {} : { progress: { done: progress.done, total: progress.total, failed: progress.failed, ...(progress.rateLimitedUntil ? { rateLimitedUntil: progress.rateLimitedUntil } : {}) } }),
      });
      // The run's answers are recorded as produced here by now: the page gets the run as written (its
      // failures and the rows they bring), then hears again how many answers came with the file.
      // A run may also bring models, scorers or failures the page has not drawn: with its first
      // answers (the file's kept ones merged by then) the page gets the run whole.
      if (ended || !drawn) void this.refresh();
      drawn = true;
    });
  }

  /** Sends the page the report as it stands now, as it was drawn when it opened; one drawing at a time, in order. */
  private async refresh(): Promise<void> {
    try {
      this.emit({ type: 'snapshot', snapshot: await this.snapshot() });
    } catch (error) {
      this.services.log.warn(`the evaluation report of ${this.uri.fsPath} could not be drawn again: ${this.services.describeFailure(error).message}`);
    }
  }

  private emitProvenance(opened: Opened, drawing: number): void {
    void opened.provenance().then((provenance) => {
      // Only for the latest drawing: an earlier one's counts, told late, would be stale.
      if (provenance && this.opened !== undefined && drawing === this.drawings) this.emit({ type: 'provenance', provenance: provenance.counts });
    });
  }

  /** The whole run: the one writing the file while it goes, otherwise every answer of the file. */
  private async load(): Promise<EvalRunFile> {
    const active = this.runs.get(this.uri);
    if (active) return active.run.current;
    return (await this.open()).reader.whole();
  }

  /** The file (or the run writing it) as the report reads it, opened once per page load. */
  private open(fresh = false): Promise<Opened> {
    if (fresh || !this.opened) {
      const previous = this.opened;
      const opening = this.read();
      this.opened = opening;
      void previous?.then(
        (opened) => opened.reader.dispose(),
        () => undefined,
      );
      opening.catch(() => {
        if (this.opened === opening) this.opened = undefined;
      });
    }
    return this.opened;
  }

  private async read(): Promise<Opened> {
    const active = this.runs.get(this.uri);
    let reader: RunFileReader;
    if (active) {
      const run = active.run.current;
      const held = new RunFileAnswers(run, []);
      reader = {
        head: held.head(),
        page: (offset, limit, chars) => Promise.resolve(held.page(offset, limit, chars)),
        answer: (key) => Promise.resolve(held.answer(key)),
        digests: () => digestInSlices(run.answers),
        whole: () => Promise.resolve(run),
        dispose: () => undefined,
      };
    } else {
      const name = path.posix.basename(this.uri.path);
      // The size first: a file past the cap is refused before a byte of it is read.
      const sizeProblem = runFileSizeProblem((await vscode.workspace.fs.stat(this.uri)).size);
      if (sizeProblem) throw new Error(`${name} is not a results file RL Studio can read: ${sizeProblem}`);
      const opened = await openRunFile(await vscode.workspace.fs.readFile(this.uri));
      if (!opened.ok) throw new Error(`${name} is not a results file RL Studio can read: ${opened.error}`);
      reader = opened.reader;
    }
    let provenance: ReturnType<Opened['provenance']> | undefined;
    const told = (): ReturnType<Opened['provenance']> =>
      Promise.all([reader.digests(), this.provenanceStore.producedHere(this.uri)]).then(
        ([digests, producedHere]) => ({ counts: countProvenance(digests, producedHere), digests, producedHere }),
        (error: unknown) => {
          this.services.log.warn(`which answers of ${this.uri.fsPath} were produced here could not be told: ${this.services.describeFailure(error).message}`);
          return undefined;
        },
      );
    return { reader, leaderboard: reader.head.leaderboard, provenance: () => (provenance ??= told()) };
  }

  /**
   * The report as it stands, read afresh. One drawing at a time, in order: a drawing opens the file
   * again and closes the reader the one before it used, so two at once (the page's first request,
   * a run's) would close each other's.
   */
  private snapshot(): Promise<ReportSnapshot> {
    const drawn = this.redrawing.then(() => this.draw());
    this.redrawing = drawn.then(
      () => undefined,
      () => undefined,
    );
    return drawn;
  }

  private async draw(): Promise<ReportSnapshot> {
    const opened = await this.open(true);
    const { reader } = opened;
    const run = reader.head.run;
    const scorer = primaryScorer(run.scorers);
    // A run that has settled every answer is over for the page, though it is still writing the file.
    const running = this.runs.get(this.uri)?.progress;
    const progress = running && running.done + running.failed < running.total ? running : undefined;
    const checkpoints = run.models.filter((model) => model.kind === 'checkpoint');
    const trainingModels = new Set(checkpoints.map((model) => model.trainingModelId));
    const snapshot: ReportSnapshot = {
      fileName: path.posix.basename(this.uri.path),
      run: { ...run, answers: await reader.page(0, answersPerPage, previewChars) },
      answerCount: reader.head.answerCount,
      samples: await reportSamples(this.services, this.uri, run),
      primaryScorer: scorer,
      leaderboard: opened.leaderboard,
      ...(progress ? { progress: { done: progress.done, total: progress.total, failed: progress.failed } } : {}),
      canPromote: checkpoints.length > 0 && trainingModels.size === 1 && (await this.services.credentials.isSignedIn()),
      gone: [...this.gone],
    };
    // After the reply is posted: the page draws the snapshot first, then hears where its answers came from.
    const drawing = ++this.drawings;
    setImmediate(() => this.emitProvenance(opened, drawing));
    return snapshot;
  }

  private handlers(): Handlers<ReportHostMethods> {
    return {
      ready: () => this.snapshot(),
      answers: async (raw) => {
        const offset = ownValue(params.object(raw), 'offset');
        const limit = ownValue(params.object(raw), 'limit');
        if (!isCount(offset) || !isCount(limit)) throw new ProtocolError('offset and limit must be counts');
        const { reader } = await this.open();
        const answers = await reader.page(offset, Math.min(limit, answersPerPage), previewChars);
        return { answers, total: reader.head.answerCount };
      },
      answer: async (raw) => {
        const key = params.string(raw, 'key', 200);
        return (await this.open()).reader.answer(key);
      },
      retry: async (raw) => {
        const keys = ownValue(params.object(raw), 'keys');
        if (!Array.isArray(keys) || keys.length > maxRetryKeys || !keys.every((key) => typeof key === 'string' && key.length <= 200)) throw new ProtocolError('keys must be a list of answer keys');
        // The page's keys are only a wish: the retry asks those of them that are failed answers of the file.
        await retryFromResults(this.services, this.runs, this.uri, { failed: keys as string[] });
        return null;
      },
      useModel: async (raw) => {
        const model = params.string(raw, 'model', 1_000);
        const opened = await this.open();
        if (!opened.reader.head.run.models.some((candidate) => candidate.id === model)) throw new ProtocolError('that model is not part of this evaluation');
        if (this.gone.has(model)) throw new ProtocolError('that checkpoint was deleted');
        await this.reporting('using the checkpoint in the chat', async () => {
          if (await this.offerRescore(opened, 'use this checkpoint in the chat')) await useInChat(this.services, this.services.dialogs, model);
        });
        return null;
      },
      deleteOthers: async (raw) => {
        const keep = params.string(raw, 'keep', 1_000);
        const opened = await this.open();
        if (this.gone.has(keep)) throw new ProtocolError('that checkpoint was deleted');
        await this.reporting('deleting checkpoints', async () => {
          if (!(await this.offerRescore(opened, 'delete checkpoints'))) return;
          const models = opened.reader.head.run.models;
          const after = await deleteOtherCheckpoints(this.services, { models, leaderboard: opened.leaderboard }, keep);
          if (!after) return;
          const listed = new Set(after.steps);
          for (const model of models) {
            if (model.kind === 'checkpoint' && model.trainingModelId === after.trainingModelId && model.step !== undefined && !listed.has(model.step)) this.gone.add(model.id);
          }
          this.emit({ type: 'checkpoints', gone: [...this.gone] });
        });
        return null;
      },
      cancel: () => {
        this.runs.cancel(this.uri);
        return null;
      },
      saveChart: async (raw) => {
        const file = chartFileParams(raw);
        await this.reporting('saving the chart', async () => {
          await saveChartFile(this.services.dialogs, file);
        });
        return null;
      },
    };
  }

  /** Runs an action the person started from the page; a failure is shown to them, not only to the page. */
  private async reporting(doing: string, action: () => Promise<void>): Promise<void> {
    try {
      await action();
    } catch (error) {
      this.services.showError(error, doing);
    }
  }

  /**
   * When answers of the leaderboard came with the file, says so and offers to re-score them first
   * (leaderboardProvenance.ts). True to go on with the action.
   */
  private async offerRescore(opened: Opened, action: string): Promise<boolean> {
    const provenance = await opened.provenance();
    const choice = await askAboutProvenance(this.services.dialogs, provenance?.counts, action);
    if (choice === 'rescore' && provenance) await this.rescore(provenance.digests, provenance.producedHere);
    return choice === 'continue';
  }

  /**
   * Asks again every answer that came with the file, through the same gates as a retry: the set path
   * kept in the workspace, programs allowed, unknown models and every request named before sending.
   */
  private async rescore(digests: readonly string[], producedHere: ReadonlySet<string>): Promise<void> {
    const run = await this.load();
    const again = run.answers.filter((_, at) => !producedHere.has(digests[at] ?? '')).map((answer) => answer.key);
    await retryFromResults(this.services, this.runs, this.uri, { again });
  }
}
