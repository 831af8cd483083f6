import { monotonicClock, type Clock } from '../../platform/kit/clock';
import { ProtocolError } from '../../platform/pages/wire';
import { RateLimit } from './rateLimit';

/** What a person does a few times in a row at most; a webview doing it in a loop is refused. */
const actionBurst = 5;
const actionRefillMs = 1_000;
/** Problems the webview reports (and messages it sends that are not understood) that reach the log. */
const logBurst = 20;
const logRefillMs = 3_000;
/** The model list is read again at most this often on the webview's request. */
const refreshIntervalMs = 2_000;

export type GuardedAction = 'copyText' | 'insertText' | 'openLink' | 'runAction' | 'exportConversation';

/**
 * The limits on what the webview can make the editor do. The webview is treated as hostile: it may
 * ask to open links, insert text, run commands, open dialogs and write to the log, but a flood of
 * such requests is refused (each with an error reply), one dialog is open at a time, and the log
 * gets a bounded number of its lines.
 */
export class WebviewGuards {
  private readonly actions = new Map<GuardedAction, RateLimit>();
  private readonly logLimit: RateLimit;
  private logDropped = false;
  private dialogOpen = false;
  private lastRefreshAt = -Infinity;

  constructor(
    private readonly report: (problem: string) => void,
    private readonly clock: Pick<Clock, 'now'> = monotonicClock,
  ) {
    this.logLimit = new RateLimit(logBurst, logRefillMs, clock);
  }

  /** Throws when this action was asked for too often just now. */
  action(name: GuardedAction): void {
    let limit = this.actions.get(name);
    if (!limit) {
      limit = new RateLimit(actionBurst, actionRefillMs, this.clock);
      this.actions.set(name, limit);
    }
    if (!limit.take()) throw new ProtocolError('too many requests of this kind just now: try again in a moment', 'rate-limited');
  }

  /** Runs a native dialog; while one is open, another is refused rather than queued behind it. */
  async dialog<T>(open: () => Promise<T>): Promise<T> {
    if (this.dialogOpen) throw new ProtocolError('a dialog is already open', 'busy');
    this.dialogOpen = true;
    try {
      return await open();
    } finally {
      this.dialogOpen = false;
    }
  }

  /** Whether the model list may be read again now. */
  refreshAllowed(): boolean {
    const now = this.clock.now();
    if (now - this.lastRefreshAt < refreshIntervalMs) return false;
    this.lastRefreshAt = now;
    return true;
  }

  /** Passes a problem on to the log, unless the webview has reported too many just now. */
  log(problem: string): void {
    if (this.logLimit.take()) {
      this.logDropped = false;
      this.report(problem);
    } else if (!this.logDropped) {
      this.logDropped = true;
      this.report('the chat webview reports more problems than are logged; some are left out');
    }
  }
}
