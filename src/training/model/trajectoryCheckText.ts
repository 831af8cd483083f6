/**
 * A trajectory file's check as text for a language model: whether it can be sent, what it holds,
 * and its problems with their lines (one-based, as editors show them). No `vscode` import.
 */
import { summariseValues } from '../../platform/kit/valueSummary';
import type { ParsedTrajectoryFile } from '../../platform/kit/trajectoryFile';
import { formatMetric } from '../../platform/kit/format';
import { escapedLine, foreignName } from '../../platform/agent/foreignText';

/** Problems named one by one at most; the rest are counted. */
const listedProblems = 20;

export function describeTrajectoryCheck(fileLabel: string, parsed: ParsedTrajectoryFile): string {
  const label = foreignName(fileLabel, 1_024);
  const trajectories = parsed.groups.reduce((sum, group) => sum + (Array.isArray(group.trajectories) ? group.trajectories.length : 0), 0);
  const rewards = parsed.groups
    .flatMap((group) => (Array.isArray(group.trajectories) ? group.trajectories : []))
    .map((trajectory) => trajectory.reward)
    .filter((reward): reward is number => typeof reward === 'number' && Number.isFinite(reward));
  const errors = parsed.problems.filter((problem) => problem.severity === 'error');
  const count = (severity: 'error' | 'warning') => parsed.problems.filter((problem) => problem.severity === severity).reduce((sum, problem) => sum + (problem.notListed ?? 1), 0);
  const lines = [
    parsed.ok ? `${label} can be sent: ${parsed.groups.length} trajectory groups, ${trajectories} trajectories.` : `${label} cannot be sent as it is: ${count('error')} errors must be fixed first.`,
  ];
  const summary = summariseValues(rewards);
  if (summary) lines.push(`Rewards: mean ${formatMetric(summary.mean)}, min ${formatMetric(summary.min)}, max ${formatMetric(summary.max)} over ${rewards.length} trajectories.`);
  const warnings = count('warning');
  if (errors.length > 0 || warnings > 0) lines.push(`Problems (${count('error')} errors, ${warnings} warnings):`);
  for (const problem of parsed.problems.slice(0, listedProblems)) {
    lines.push(
      problem.notListed ? `- … ${problem.notListed} more ${problem.severity}s` : `- line ${problem.line + 1}, column ${problem.column + 1}: ${problem.severity}: ${escapedLine(problem.message, 300)}`,
    );
  }
  if (parsed.problems.length > listedProblems) lines.push(`- … ${parsed.problems.length - listedProblems} more problems listed in the editor's Problems panel once the file is opened.`);
  return lines.join('\n');
}
