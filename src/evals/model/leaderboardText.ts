/**
 * An evaluation's leaderboard as text for a language model: best first, each mean with its 95 %
 * interval, and whether the leader is clearly ahead. Labels, model ids and the scorer's name may
 * come from a results file, so each is quoted or kept to one plain token. No `vscode` import.
 */
import type { LeaderboardRow } from './evalModel';
import { foreignName, foreignToken } from '../../platform/agent/foreignText';

const percent = (value: number) => value.toFixed(3);

export function describeLeaderboard(rows: readonly LeaderboardRow[], scorer: string, resultsPath: string): string {
  const lines = [`Leaderboard by ${foreignName(scorer, 80)} (mean, 95 % interval; results in ${foreignName(resultsPath, 1_024)}):`];
  rows.slice(0, 50).forEach((row, index) => {
    const failed = row.failed > 0 ? `, ${row.failed} failed` : '';
    lines.push(
      `${index + 1}. ${label(row)}${row.step !== undefined && row.label !== `step ${row.step}` ? ` (step ${foreignToken(String(row.step))})` : ''}: ${row.scored > 0 ? `${percent(row.mean)} [${percent(row.low)}, ${percent(row.high)}]` : 'nothing scored'} over ${row.scored} answers${failed} · model id ${foreignToken(String(row.model), 512)}`,
    );
  });
  const [first, second] = rows;
  if (first && second && first.scored > 0 && second.scored > 0) {
    lines.push(
      first.low > second.high
        ? `${label(first)} leads, and its interval does not overlap that of ${label(second)}: the lead is clear.`
        : `${label(first)} leads, but its interval overlaps that of ${label(second)}: more samples would be needed to call it.`,
    );
  }
  return lines.join('\n');
}

/** RL Studio's own labels (`step 20`, `base`) as they are; any other label, from a results file, quoted. */
function label(row: LeaderboardRow): string {
  return /^(step \d+|base)$/.test(row.label) ? row.label : foreignName(row.label, 120);
}
