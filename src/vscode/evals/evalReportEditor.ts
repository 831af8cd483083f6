import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AnswerRecord, EvalRunFile } from '../../evals/evalModel';
import { primaryScorer } from '../../evals/evalRun';
import { parseRunFile } from '../../evals/resultsFile';
import { leaderboard } from '../../evals/statistics';
import { RpcEndpoint, type Handlers } from '../../webview/common/rpc';
import { ownValue, params, ProtocolError, type WireMessage } from '../../webview/common/wire';
import {
  previewChars,
  type PreviewAnswer,
  type ReportHostEvent,
  type ReportHostMethods,
  type ReportPageEvent,
  type ReportPageMethods,
  type ReportSnapshot,
  type SampleView,
} from '../../webview/evalReport/evalReportProtocol';
import type { Services } from '../platform/services';
import { useInChat } from '../sidebar/models/useInChat';
import { loadWebviewPage } from '../webviews/panelOptions';
import type { EvalRuns } from './evalRuns';
import { readEvalSet } from './evalSetFiles';
import { deleteOtherCheckpoints } from './pruneCheckpoints';
import { retryFromResults } from './retryFromResults';
import { resolveWorkspacePath } from './workspaceFilePaths';

type PageChannel = RpcEndpoint<ReportPageMethods, ReportHostMethods, ReportHostEvent, ReportPageEvent>;

/** The most keys a retry may name (a run has at most evalLimits' samples x models x draws answers). */
const maxRetryKeys = 100_000;

function preview(answer: AnswerRecord): PreviewAnswer {
  return answer.text !== undefined && answer.text.length > previewChars ? { ...answer, text: answer.text.slice(0, previewChars), cut: true } : answer;
}

/**
 * The evaluation report: a results file (`*.rleval.json`) opened read-only. The page is drawn from
 * the file, or from the run writing it while one goes, with its answers pushed as they come.
 */
export class EvalReportProvider implements vscode.CustomReadonlyEditorProvider {
  constructor(
    private readonly services: Services,
    private readonly runs: EvalRuns,
  ) {}

  openCustomDocument(uri: vscode.Uri): vscode.CustomDocument {
    return { uri, dispose: () => undefined };
  }

  resolveCustomEditor(document: vscode.CustomDocument, panel: vscode.WebviewPanel): void {
    new EvalReportPanel(this.services, this.runs, document.uri, panel);
  }
}

class EvalReportPanel {
  private readonly channel: PageChannel;
  private readonly subscriptions: vscode.Disposable[] = [];
  private run: EvalRunFile | undefined;
  private stopListening: (() => void) | undefined;

  constructor(
    private readonly services: Services,
    private readonly runs: EvalRuns,
    private readonly uri: vscode.Uri,
    panel: vscode.WebviewPanel,
  ) {
    this.channel = new RpcEndpoint<ReportPageMethods, ReportHostMethods, ReportHostEvent, ReportPageEvent>({
      post: (message: WireMessage) => void panel.webview.postMessage(message),
      handlers: this.handlers(),
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
      for (const subscription of this.subscriptions) subscription.dispose();
      this.channel.dispose();
    });
    this.follow();
  }

  /** Pushes the answers of the run writing this file, while one goes. */
  private follow(): void {
    const active = this.runs.get(this.uri);
    if (!active) return;
    this.stopListening?.();
    this.stopListening = active.run.onAnswers((answers, progress) => {
      this.run = active.run.current;
      const scorer = primaryScorer(this.run.scorers);
      const ended = progress.done + progress.failed >= progress.total && progress.inFlight === 0;
      this.channel.emit({
        type: 'answers',
        answers: answers.map(preview),
        leaderboard: leaderboard(this.run, scorer),
        ...(ended ? {} : { progress: { done: progress.done, total: progress.total, failed: progress.failed, ...(progress.rateLimitedUntil ? { rateLimitedUntil: progress.rateLimitedUntil } : {}) } }),
      });
    });
  }

  private async load(): Promise<EvalRunFile> {
    const active = this.runs.get(this.uri);
    if (active) return active.run.current;
    const parsed = parseRunFile(new TextDecoder().decode(await vscode.workspace.fs.readFile(this.uri)));
    if (!parsed.ok) throw new Error(`${path.posix.basename(this.uri.path)} is not a results file RL Studio can read: ${parsed.error}`);
    return parsed.run;
  }

  private async snapshot(): Promise<ReportSnapshot> {
    const run = (this.run = await this.load());
    const scorer = primaryScorer(run.scorers);
    const progress = this.runs.get(this.uri)?.progress;
    const checkpoints = run.models.filter((model) => model.kind === 'checkpoint');
    const trainingModels = new Set(checkpoints.map((model) => model.trainingModelId));
    return {
      fileName: path.posix.basename(this.uri.path),
      run: { ...run, answers: run.answers.map(preview) },
      samples: await this.samples(run),
      primaryScorer: scorer,
      leaderboard: leaderboard(run, scorer),
      ...(progress ? { progress: { done: progress.done, total: progress.total, failed: progress.failed } } : {}),
      canPromote: checkpoints.length > 0 && trainingModels.size === 1 && (await this.services.credentials.isSignedIn()),
    };
  }

  /** The eval set's samples, its path read from the results file's workspace folder and kept inside the workspace; none when the set is gone or elsewhere. */
  private async samples(run: EvalRunFile): Promise<SampleView[]> {
    const folder = vscode.workspace.getWorkspaceFolder(this.uri)?.uri;
    if (!folder) return [];
    let setUri: vscode.Uri;
    try {
      setUri = await resolveWorkspacePath(folder, run.set.path, 'eval set');
    } catch (error) {
      // A path that leaves the workspace is the file's doing, not a set that went missing: say so.
      if (/outside the workspace/.test(String(error))) this.services.dialogs.warn(this.services.log.redact(`${path.posix.basename(this.uri.path)}: ${(error as Error).message}`));
      this.services.log.warn(`the eval set of ${this.uri.fsPath} was not read: ${this.services.describeFailure(error).message}`);
      return [];
    }
    try {
      const set = await readEvalSet(setUri);
      return set.samples.map((sample) => ({
        id: sample.id,
        line: sample.line,
        messages: sample.messages.map((message) => ({ role: message.role, content: message.content.slice(0, previewChars * 8) })),
        ...(sample.reference !== undefined ? { reference: sample.reference.slice(0, previewChars * 8) } : {}),
      }));
    } catch (error) {
      this.services.log.warn(`the eval set of ${this.uri.fsPath} could not be read: ${this.services.describeFailure(error).message}`);
      return [];
    }
  }

  private handlers(): Handlers<ReportHostMethods> {
    return {
      ready: () => this.snapshot(),
      answer: async (raw) => {
        const key = params.string(raw, 'key', 200);
        const run = this.run ?? (await this.load());
        return run.answers.find((answer) => answer.key === key) ?? null;
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
        if (!(this.run ?? (await this.load())).models.some((candidate) => candidate.id === model)) throw new ProtocolError('that model is not part of this evaluation');
        await useInChat(this.services, this.services.dialogs, model);
        return null;
      },
      deleteOthers: async (raw) => {
        const keep = params.string(raw, 'keep', 1_000);
        await deleteOtherCheckpoints(this.services, this.run ?? (await this.load()), keep);
        return null;
      },
      cancel: () => {
        this.runs.cancel(this.uri);
        return null;
      },
    };
  }
}
