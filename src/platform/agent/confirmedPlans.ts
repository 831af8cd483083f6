/**
 * What a tool's confirmation named, kept from the moment it was shown until the tool runs, so the
 * action carries out exactly that instead of looking its inputs up again (a file read twice, a step
 * list resolved twice, a webhook found twice can each change in between). VS Code asks a tool to
 * prepare its confirmation and later to run, with the same input and no other shared handle, so a
 * plan is filed under the tool's name and its checked input. Bounded in number and in age: a plan
 * not run within `ttlMs` is gone, and running then refuses. No `vscode` import.
 */
import { contentDigest } from '../kit/confirmationText';

/** Plans kept at most, across all tools; the oldest goes first. */
export const maxKeptPlans = 32;
/** How long a confirmation stays good: long enough to read the dialog, short enough that the world has not moved on. */
export const planTtlMs = 10 * 60_000;

interface Kept<Plan> {
  key: string;
  plan: Plan;
  at: number;
}

export class ConfirmedPlans {
  /** Oldest first, one a key. */
  private readonly kept: Kept<unknown>[] = [];

  constructor(
    private readonly now: () => number = Date.now,
    private readonly ttlMs = planTtlMs,
    private readonly maxPlans = maxKeptPlans,
  ) {}

  /**
   * Files the plan a confirmation was made from. A newer confirmation of the same call replaces an
   * older one: a confirmation the person cancelled leaves its plan behind, and the next one for the
   * same input must run what it showed, not what the cancelled one read.
   */
  keep(tool: string, input: unknown, plan: unknown): void {
    this.forgetExpired();
    const key = planKey(tool, input);
    const older = this.kept.findIndex((entry) => entry.key === key);
    if (older >= 0) this.kept.splice(older, 1);
    this.kept.push({ key, plan, at: this.now() });
    if (this.kept.length > this.maxPlans) this.kept.splice(0, this.kept.length - this.maxPlans);
  }

  /** The plan confirmed for this tool and input, removed so it runs once; undefined when none is kept (never confirmed, expired or already run). */
  take<Plan>(tool: string, input: unknown): Plan | undefined {
    this.forgetExpired();
    const key = planKey(tool, input);
    const index = this.kept.findIndex((entry) => entry.key === key);
    if (index < 0) return undefined;
    return this.kept.splice(index, 1)[0]!.plan as Plan;
  }

  get size(): number {
    return this.kept.length;
  }

  private forgetExpired(): void {
    const oldest = this.now() - this.ttlMs;
    while (this.kept.length > 0 && this.kept[0]!.at < oldest) this.kept.shift();
  }
}

/** The tool's name and its checked input (plain JSON from the tool's `read`), as one digest. */
function planKey(tool: string, input: unknown): string {
  return contentDigest(`${tool}\u0000${JSON.stringify(input) ?? ''}`);
}
