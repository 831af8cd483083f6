/**
 * A rollout file's figures as text for a language model and the person who asked it: what the
 * file holds, how its rewards and completions are spread, which groups are flagged and why that
 * matters, and what could not be read. Read from the inspector's snapshot, so it costs nothing
 * beyond what the inspector already gathered.
 */
import { escapedLine, foreignName, foreignToken } from '../../platform/agent/foreignText';
import { groupFlagMeanings, groupFlags } from './groupSummaryShape';
import type { RolloutSnapshot } from './rolloutCollection';
import type { Histogram, SeriesStatistics } from './rolloutStatistics';
import { formatCount, plural } from '../../platform/kit/format';
import { defaultReportChars, formatFigure, joinCapped } from '../../platform/agent/textTable';

export interface RolloutReportOptions {
  /** Characters of the whole text at most (8,000 by default). */
  maxChars?: number;
  /** Masked wherever they appear in the text, after it is cut to length. */
  secrets?: readonly string[];
  /** What a problem's place counts: lines of a text file (the default), rows of a Parquet log. */
  places?: 'line' | 'row';
}

export const histogramTextBins = 5;
const barWidth = 20;
const problemsListed = 5;
const metricsListed = 8;
const finishReasonsListed = 8;

/** The file's groups, rewards, completion lengths, finish reasons, flags and problems, as plain lines. */
export function describeRolloutsForAgent(fileName: string, snapshot: RolloutSnapshot, options: RolloutReportOptions = {}): string {
  const statistics = snapshot.statistics;
  const lines: string[] = [`Rollout file: ${foreignName(fileName, 1_024)}`];
  const perGroup = statistics.groups > 0 ? ` (${formatFigure(statistics.trajectories / statistics.groups)} per group on average)` : '';
  lines.push(`Groups: ${formatCount(statistics.groups)} · trajectories: ${formatCount(statistics.trajectories)}${perGroup} · exceptions: ${formatCount(statistics.exceptions)}`);
  if (snapshot.incomplete) lines.push(`The last line (line ${snapshot.incomplete.line + 1}) is unfinished: perhaps still being written; it is not counted.`);
  if (statistics.groups === 0) lines.push('No group could be read, so there are no figures.');
  else {
    lines.push(`Reward: ${seriesLine(statistics.reward)}`);
    lines.push(...histogramLines('Reward', statistics.reward));
    lines.push(`Completion length (characters of the trained turns): ${seriesLine(statistics.completionLength)}`);
    lines.push(`Finish reasons: ${countsLine(statistics.finishReasons, finishReasonsListed)}`);
    const metricKeys = Object.keys(statistics.metrics).sort();
    if (metricKeys.length > 0) {
      const shown = metricKeys.slice(0, metricsListed).map((key) => {
        const series = statistics.metrics[key]!;
        // A metric of booleans is a rate: "correct true in 62.5%".
        const figure = series.rate ? `true in ${formatFigure(Math.round(series.mean * 1000) / 10)}%` : `mean ${formatFigure(series.mean)}`;
        return `${foreignToken(key, 60)} ${figure} (${formatCount(series.count)} values)`;
      });
      if (metricKeys.length > metricsListed) shown.push(`… ${formatCount(metricKeys.length - metricsListed)} more`);
      lines.push(`Trajectory metrics: ${shown.join(' · ')}`);
    }
    lines.push('Flagged groups:');
    for (const flag of groupFlags) {
      const count = statistics.flags[flag] ?? 0;
      lines.push(
        `- ${groupFlagMeanings[flag].label}: ${formatCount(count)} of ${formatCount(statistics.groups)} (${formatFigure((100 * count) / statistics.groups)}%) · ${groupFlagMeanings[flag].meaning}`,
      );
    }
  }
  const problems = snapshot.problems.length + snapshot.problemsNotListed;
  if (problems === 0) lines.push('Problems: none.');
  else {
    lines.push(`Problems: ${formatCount(problems)}${problems > problemsListed ? `, the first ${problemsListed}` : ''}:`);
    for (const problem of snapshot.problems.slice(0, problemsListed)) lines.push(`- ${options.places ?? 'line'} ${problem.line + 1} (${problem.severity}): ${escapedLine(problem.message, 300)}`);
  }
  if (snapshot.groupsNotKept > 0)
    lines.push(
      `Groups not kept: ${formatCount(snapshot.groupsNotKept)} (counted in the figures above; the inspector keeps the first ${formatCount(snapshot.groupsRead - snapshot.groupsNotKept)} to list).`,
    );
  return joinCapped(lines, options.maxChars ?? defaultReportChars, options.secrets);
}

function seriesLine(series: SeriesStatistics): string {
  if (series.count === 0) return 'no values';
  return `mean ${formatFigure(series.mean)}, std ${formatFigure(series.std)}, min ${formatFigure(series.min)}, max ${formatFigure(series.max)} (${plural(series.count, 'value')})`;
}

/**
 * The statistics' histogram merged into `histogramTextBins` equal bins with a bar each. The
 * statistics keep 20 bins, so each text bin is 4 of them; the bins are of the values kept for the
 * histogram (a note says when those are fewer than all).
 */
function histogramLines(name: string, series: SeriesStatistics): string[] {
  if (series.count === 0) return [];
  const histogram: Histogram = series.histogram;
  const kept = histogram.counts.reduce((sum, count) => sum + count, 0);
  const of = series.histogramOf < series.count ? ` (of the first ${formatCount(series.histogramOf)} values)` : '';
  if (histogram.max === histogram.min) return [`${name} histogram: all ${formatCount(kept)} values are ${formatFigure(histogram.min)}${of}.`];
  const counts = new Array<number>(histogramTextBins).fill(0);
  histogram.counts.forEach((count, bin) => {
    counts[Math.min(histogramTextBins - 1, Math.floor((bin * histogramTextBins) / histogram.counts.length))]! += count;
  });
  const width = (histogram.max - histogram.min) / histogramTextBins;
  const ranges = counts.map((_, bin) => `${formatFigure(histogram.min + bin * width)} to ${formatFigure(bin === histogramTextBins - 1 ? histogram.max : histogram.min + (bin + 1) * width)}`);
  const rangeWidth = Math.max(...ranges.map((range) => range.length));
  const largest = Math.max(...counts);
  const lines = [`${name} histogram (${histogramTextBins} equal bins${of}):`];
  counts.forEach((count, bin) => {
    const bar = '#'.repeat(largest > 0 ? Math.round((count / largest) * barWidth) : 0);
    lines.push(`  ${ranges[bin]!.padEnd(rangeWidth)} | ${bar}${bar ? ' ' : ''}${formatCount(count)}`);
  });
  return lines;
}

function countsLine(counts: Record<string, number>, max: number): string {
  const entries = Object.entries(counts).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  if (entries.length === 0) return 'none recorded';
  const shown = entries.slice(0, max).map(([key, count]) => `${foreignToken(key, 40)} ${formatCount(count)}`);
  if (entries.length > max) shown.push(`… ${formatCount(entries.length - max)} more`);
  return shown.join(' · ');
}
