/**
 * An evaluation's leaderboard as text for a language model: best first, each mean with its 95 %
 * interval, and whether the leader is clearly ahead. No `vscode` import.
 */
import type { LeaderboardRow } from '../evals/evalModel';

const percent = (value: number) => value.toFixed(3);

export function describeLeaderboard(rows: readonly LeaderboardRow[], scorer: string, resultsPath: string): string {
  const lines = [`Leaderboard by ${scorer} (mean, 95 % interval; results in ${resultsPath}):`];
  rows.slice(0, 50).forEach((row, index) => {
    const failed = row.failed > 0 ? `, ${row.failed} failed` : '';
    lines.push(
      `${index + 1}. ${row.label}${row.step !== undefined && !row.label.includes(String(row.step)) ? ` (step ${row.step})` : ''}: ${row.scored > 0 ? `${percent(row.mean)} [${percent(row.low)}, ${percent(row.high)}]` : 'nothing scored'} over ${row.scored} answers${failed} · model id ${row.model}`,
    );
  });
  const [first, second] = rows;
  if (first && second && first.scored > 0 && second.scored > 0) {
    lines.push(
      first.low > second.high
        ? `${first.label} leads, and its interval does not overlap ${second.label}'s: the lead is clear.`
        : `${first.label} leads, but its interval overlaps ${second.label}'s: more samples would be needed to call it.`,
    );
  }
  return lines.join('\n');
}
