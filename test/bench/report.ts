/**
 * The shape every benchmark suite reports in, so `npm run bench` prints one table.
 * A figure may name a peer measured in the same run; the ratio is ours against theirs.
 */
export interface BenchFigure {
  /** What was measured, e.g. "SSE parse throughput". */
  name: string;
  value: number;
  unit: string;
  /** The peer measured on the same input in the same run, when there is one. */
  peer?: { name: string; value: number };
  /** How to read the ratio: 'higher' when more is better (throughput), 'lower' for times and memory. */
  better: 'higher' | 'lower';
  /** The goal, as a ratio against the peer or an absolute bound, for the printed verdict. */
  goal?: { kind: 'ratio'; atLeast?: number; atMost?: number } | { kind: 'absolute'; atMost?: number; atLeast?: number };
  note?: string;
}

export interface BenchSuite {
  name: string;
  run(): Promise<BenchFigure[]>;
}

export function ratioOf(figure: BenchFigure): number | undefined {
  if (!figure.peer || figure.peer.value === 0) return undefined;
  return figure.value / figure.peer.value;
}

export function meetsGoal(figure: BenchFigure): boolean | undefined {
  const goal = figure.goal;
  if (!goal) return undefined;
  const measured = goal.kind === 'ratio' ? ratioOf(figure) : figure.value;
  if (measured === undefined) return undefined;
  if (goal.atLeast !== undefined && measured < goal.atLeast) return false;
  if (goal.atMost !== undefined && measured > goal.atMost) return false;
  return true;
}

/** Formats one figure as a printable line. */
export function formatFigure(figure: BenchFigure): string {
  const value = `${round(figure.value)} ${figure.unit}`;
  const ratio = ratioOf(figure);
  const peer = figure.peer ? `  vs ${figure.peer.name} ${round(figure.peer.value)} ${figure.unit} (ratio ${round(ratio ?? NaN)}x)` : '';
  const verdict = meetsGoal(figure);
  const goal = figure.goal ? `  goal ${describeGoal(figure.goal)}: ${verdict === undefined ? 'n/a' : verdict ? 'met' : 'NOT met'}` : '';
  const note = figure.note ? `  (${figure.note})` : '';
  return `${figure.name}: ${value}${peer}${goal}${note}`;
}

function describeGoal(goal: NonNullable<BenchFigure['goal']>): string {
  const unit = goal.kind === 'ratio' ? 'x' : '';
  const parts = [];
  if (goal.atLeast !== undefined) parts.push(`>= ${goal.atLeast}${unit}`);
  if (goal.atMost !== undefined) parts.push(`<= ${goal.atMost}${unit}`);
  return parts.join(' and ');
}

function round(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const abs = Math.abs(n);
  return abs >= 100 ? n.toFixed(0) : abs >= 10 ? n.toFixed(1) : abs >= 1 ? n.toFixed(2) : n.toPrecision(3);
}
