/** How often to poll a moving job, given whether anyone is looking and how the last polls went. */
export interface PollPolicy {
  /** Interval while the view is visible and the window focused. */
  baseMs: number;
  /** Multiplier while the view is visible but the window is not focused. */
  unfocusedFactor: number;
  /** Multiplier while no view showing the job is visible. */
  hiddenFactor: number;
  /** Upper bound of any delay, failures included. */
  maxMs: number;
}

export interface Activity {
  visible: boolean;
  focused: boolean;
}

/**
 * No job is polled more often than this, whatever the settings, a refresh or a server say: the
 * platform's own client polls every second, and a setting of 0.001 s must not become 1,000 requests
 * a second.
 */
export const minPollIntervalMs = 500;

/** The longest wait a timer can take: beyond it Node fires at once (and warns). */
const longestTimerMs = 2 ** 31 - 1;

export function defaultPollPolicy(baseMs: number): PollPolicy {
  return { baseMs, unfocusedFactor: 5, hiddenFactor: 15, maxMs: 60_000 };
}

/**
 * The delay before the next poll. Consecutive setbacks (failed polls, or answers that broke the
 * paging rules) double it (1, 2, 4… times the activity delay, capped) so an unreachable or
 * misbehaving server is not hammered; `jitter` in [0, 1) spreads many jobs that failed together so
 * they do not retry in lockstep. Never below `minPollIntervalMs`, never NaN, never beyond a timer's
 * range, whatever the policy holds.
 */
export function pollDelay(policy: PollPolicy, activity: Activity, setbacks: number, jitter = 0): number {
  const base = atLeastFloor(policy.baseMs);
  const max = Math.max(base, Number.isFinite(policy.maxMs) ? Math.min(longestTimerMs, policy.maxMs) : longestTimerMs);
  let delay = base;
  if (!activity.visible) delay *= finiteFactor(policy.hiddenFactor);
  else if (!activity.focused) delay *= finiteFactor(policy.unfocusedFactor);
  if (setbacks > 0) {
    delay *= 2 ** Math.min(setbacks, 16);
    delay *= 1 + 0.25 * (Number.isFinite(jitter) ? Math.min(Math.max(jitter, 0), 1) : 0);
  }
  return Math.min(max, Math.max(base, delay));
}

function atLeastFloor(ms: number): number {
  return Number.isFinite(ms) ? Math.min(longestTimerMs, Math.max(minPollIntervalMs, ms)) : minPollIntervalMs;
}

function finiteFactor(factor: number): number {
  return Number.isFinite(factor) && factor >= 1 ? factor : 1;
}
