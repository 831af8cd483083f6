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

export function defaultPollPolicy(baseMs: number): PollPolicy {
  return { baseMs, unfocusedFactor: 5, hiddenFactor: 15, maxMs: 60_000 };
}

/**
 * The delay before the next poll. Consecutive failures double it (1, 2, 4… times the activity
 * delay, capped) so an unreachable server is not hammered; `jitter` in [0, 1) spreads many jobs
 * that failed together so they do not retry in lockstep.
 */
export function pollDelay(policy: PollPolicy, activity: Activity, failures: number, jitter = 0): number {
  let delay = policy.baseMs;
  if (!activity.visible) delay *= policy.hiddenFactor;
  else if (!activity.focused) delay *= policy.unfocusedFactor;
  if (failures > 0) {
    delay *= 2 ** Math.min(failures, 16);
    delay *= 1 + 0.25 * jitter;
  }
  return Math.min(policy.maxMs, Math.max(policy.baseMs, delay));
}
