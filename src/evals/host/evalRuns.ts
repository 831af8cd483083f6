import * as vscode from 'vscode';
import type { EvalRunFile } from '../model/evalModel';
import type { EvalRun, EvalRunProgress } from '../model/evalRun';

interface ActiveRun {
  run: EvalRun;
  abort: AbortController;
  progress?: EvalRunProgress;
}

/**
 * The evaluation runs going now, by their results file: one at a time per file (a second start
 * while one runs is refused), so the report of a file shows its run live and can cancel it.
 */
export class EvalRuns implements vscode.Disposable {
  private readonly active = new Map<string, ActiveRun>();
  private readonly started = new vscode.EventEmitter<vscode.Uri>();
  /** Fires when a run starts for a results file. */
  readonly onDidStart = this.started.event;

  get(uri: vscode.Uri): ActiveRun | undefined {
    return this.active.get(uri.toString());
  }

  /** Runs `run` for the file until it ends; resolves with the run as written. */
  async run(uri: vscode.Uri, run: EvalRun): Promise<EvalRunFile> {
    const key = uri.toString();
    if (this.active.has(key)) throw new Error('an evaluation is already running for this results file: wait for it, or cancel it in its report');
    const entry: ActiveRun = { run, abort: new AbortController() };
    this.active.set(key, entry);
    const stop = run.onAnswers((_, progress) => {
      entry.progress = progress;
    });
    this.started.fire(uri);
    try {
      return await run.start(entry.abort.signal);
    } finally {
      stop();
      this.active.delete(key);
    }
  }

  cancel(uri: vscode.Uri): void {
    this.active.get(uri.toString())?.abort.abort();
  }

  dispose(): void {
    for (const entry of this.active.values()) entry.abort.abort();
    this.started.dispose();
  }
}
