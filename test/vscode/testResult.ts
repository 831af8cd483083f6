/**
 * The line a test run ends with, read by the runners and by test/run-all.mjs: `<stage>: N passed, N failed`.
 * Inside the extension host the counts travel as one marked JSON line, because the host's output
 * reaches the runner mixed with everything else the workbench logs.
 */
export interface TestCounts {
  passed: number;
  failed: number;
  pending: number;
}

const marker = 'rl-studio-test-counts ';

/** Printed by the tests entry as the run starts, so that a runner can tell the tests' output from the workbench's. */
export const testsStartLine = 'rl-studio-tests-start';

export function countsLine(counts: TestCounts): string {
  return marker + JSON.stringify(counts);
}

export function parseCountsLine(line: string): TestCounts | undefined {
  const at = line.indexOf(marker);
  if (at < 0) return undefined;
  try {
    const parsed = JSON.parse(line.slice(at + marker.length)) as Partial<TestCounts>;
    if (typeof parsed.passed !== 'number' || typeof parsed.failed !== 'number') return undefined;
    return { passed: parsed.passed, failed: parsed.failed, pending: parsed.pending ?? 0 };
  } catch {
    return undefined;
  }
}

export function summaryLine(stage: string, counts: Pick<TestCounts, 'passed' | 'failed'>): string {
  return `${stage}: ${counts.passed} passed, ${counts.failed} failed`;
}
