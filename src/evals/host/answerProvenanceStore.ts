import * as vscode from 'vscode';
import { addProduced, answerDigest, parseProvenanceRecord, serializeProvenanceRecord } from '../model/answerProvenance';
import type { AnswerRecord } from '../model/evalModel';
import { contentDigest } from '../../platform/kit/confirmationText';
import type { Services } from '../../platform/host/services';
import type { EvalRuns } from './evalRuns';

/** A record is written at most this often while a run goes, and once when it ends. */
const saveEveryMs = 5_000;

/**
 * The answers this machine produced, per results file (see answerProvenance): the digest of every
 * answer a run here got, kept in the extension's global storage, which no workspace can write.
 * Answers a run only re-scored (their text came with the file) are not recorded unless they were
 * produced here before.
 */
export class AnswerProvenanceStore implements vscode.Disposable {
  private readonly records = new Map<string, Promise<Set<string>>>();
  private readonly dirty = new Set<string>();
  private readonly subscriptions: vscode.Disposable[] = [];
  private saveTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly services: Services,
    runs: EvalRuns,
  ) {
    this.subscriptions.push(runs.onDidStart((uri) => this.follow(runs, uri)));
  }

  /** The digests of the answers of this file a run here produced. */
  producedHere(uri: vscode.Uri): Promise<ReadonlySet<string>> {
    return this.record(uri);
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    clearTimeout(this.saveTimer);
    void this.saveDirty();
  }

  private follow(runs: EvalRuns, uri: vscode.Uri): void {
    const active = runs.get(uri);
    if (!active) return;
    // The texts the file held when the run started: an answer that comes back with the same text was re-scored, not asked.
    const before = new Map(active.run.current.answers.map((answer) => [answer.key, answer]));
    const stop = active.run.onAnswers((answers, progress) => {
      this.add(uri, answers, before);
      if (progress.done + progress.failed >= progress.total && progress.inFlight === 0) {
        stop();
        void this.saveDirty();
      }
    });
  }

  private add(uri: vscode.Uri, answers: readonly AnswerRecord[], before: ReadonlyMap<string, AnswerRecord>): void {
    const key = uri.toString();
    // Chained on the record, so batches are added in turn and none is lost.
    this.records.set(
      key,
      this.record(uri).then((recorded) => {
        const produced: string[] = [];
        for (const answer of answers) {
          const earlier = before.get(answer.key);
          // Re-scored, not asked: produced here only when the answer it started from was.
          const rescored = earlier !== undefined && answer.text !== undefined && earlier.text === answer.text;
          if (rescored && !recorded.has(answerDigest(earlier))) continue;
          produced.push(answerDigest(answer));
        }
        addProduced(recorded, produced);
        return recorded;
      }),
    );
    this.dirty.add(key);
    this.saveTimer ??= setTimeout(() => {
      this.saveTimer = undefined;
      void this.saveDirty();
    }, saveEveryMs);
  }

  private record(uri: vscode.Uri): Promise<Set<string>> {
    const key = uri.toString();
    let record = this.records.get(key);
    if (!record) {
      record = this.read(uri);
      this.records.set(key, record);
    }
    return record;
  }

  private fileOf(key: string): vscode.Uri {
    return vscode.Uri.joinPath(this.services.context.globalStorageUri, 'evalProvenance', `${contentDigest(key).slice(0, 32)}.json`);
  }

  private async read(uri: vscode.Uri): Promise<Set<string>> {
    try {
      return parseProvenanceRecord(new TextDecoder().decode(await vscode.workspace.fs.readFile(this.fileOf(uri.toString()))));
    } catch {
      return new Set();
    }
  }

  private async saveDirty(): Promise<void> {
    const keys = [...this.dirty];
    this.dirty.clear();
    for (const key of keys) {
      try {
        const record = await this.records.get(key)!;
        await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(this.services.context.globalStorageUri, 'evalProvenance'));
        await vscode.workspace.fs.writeFile(this.fileOf(key), new TextEncoder().encode(serializeProvenanceRecord(record)));
      } catch (error) {
        this.services.log.warn(`the record of answers produced here could not be saved: ${this.services.describeFailure(error).message}`);
      }
    }
  }
}
