/**
 * A Parquet trajectory log read as a trajectory file is checked before it is sent (Create Training
 * Job, Log to Model, the agent's trajectory tools): its groups, each run through the trajectory-group
 * shape check, and the problems placed on the row where the group starts. A problem's `line` is
 * that row (zero-based, as a line would be) and its message says "row", since the log has no text.
 *
 * The limit on what is sent applies to the JSON the groups make when sent: reading stops, with an
 * error, once it is passed.
 */
import { describeSize } from '../kit/trajectoryLimits';
import { trajectoryFileLimits, type ParsedTrajectoryFile, type SourceProblem, type TrajectoryCheckLimits } from '../kit/trajectoryFile';
import { validateTrajectoryGroup, type JsonPath } from '../kit/trajectoryShape';
import type { TrajectoryGroup } from '../client/types';
import type { ParquetSource } from './parquetFile';
import { openTrajectoryLog, readLoggedGroups, TrajectoryLogError } from './trajectoryLog';

export async function parquetTrajectoryGroups(source: ParquetSource, limits: TrajectoryCheckLimits = trajectoryFileLimits, signal?: AbortSignal): Promise<ParsedTrajectoryFile> {
  const problems: SourceProblem[] = [];
  let hiddenErrors = 0;
  let hiddenWarnings = 0;
  const add = (row: number, message: string, severity: SourceProblem['severity']): void => {
    if (problems.length < limits.maxProblems) problems.push({ line: row, column: 0, endLine: row, endColumn: 0, message: `row ${(row + 1).toLocaleString('en-US')}: ${message}`, severity });
    else if (severity === 'error') hiddenErrors++;
    else hiddenWarnings++;
  };
  const groups: TrajectoryGroup[] = [];
  let jsonSize = 0;
  try {
    const log = await openTrajectoryLog(source);
    for await (const logged of readLoggedGroups(log, signal ? { signal } : {})) {
      // The groups go out as JSON: that text is what the limit counts (with a separator each).
      jsonSize += JSON.stringify(logged.group).length + 1;
      if (jsonSize > limits.maxSize) {
        add(
          logged.rowStart,
          `the groups of this log make more than ${describeSize(limits.maxSize)} of JSON, the most RL Studio sends in one request: rows ${(logged.rowStart + 1).toLocaleString('en-US')} onward were not checked and nothing will be sent; log fewer groups per file`,
          'error',
        );
        break;
      }
      for (const message of logged.problems) add(logged.rowStart, message, 'warning');
      let hasError = false;
      for (const issue of validateTrajectoryGroup(logged.group)) {
        if (issue.severity === 'error') hasError = true;
        add(logged.rowStart, issue.path.length > 0 ? `${formatPath(issue.path)}: ${issue.message}` : issue.message, issue.severity);
      }
      if (!hasError) groups.push(logged.group as unknown as TrajectoryGroup);
    }
  } catch (error) {
    if (!(error instanceof TrajectoryLogError)) throw error;
    // The file as a whole is not a log: no row to name.
    problems.push({ line: 0, column: 0, endLine: 0, endColumn: 0, message: `${error.message}`, severity: 'error' });
  }
  const hasError = hiddenErrors > 0 || problems.some((problem) => problem.severity === 'error');
  if (groups.length === 0 && !hasError) problems.push({ line: 0, column: 0, endLine: 0, endColumn: 0, message: 'no trajectory groups in this log', severity: 'error' });
  const hidden = hiddenErrors + hiddenWarnings;
  if (hidden > 0) {
    const last = problems.at(-1)!;
    problems.push({
      ...last,
      message: `${hidden} more problem${hidden === 1 ? '' : 's'} not listed, from here on: fix the ones above first`,
      severity: hiddenErrors > 0 ? 'error' : 'warning',
      notListed: hidden,
    });
  }
  return { groups, problems, ok: !problems.some((problem) => problem.severity === 'error') };
}

/** `trajectories[2].messages_and_choices[0].role`: where in a group a shape problem is. */
function formatPath(path: JsonPath): string {
  return path.map((part, at) => (typeof part === 'number' ? `[${part}]` : at === 0 ? part : `.${part}`)).join('');
}
