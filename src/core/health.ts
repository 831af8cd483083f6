/** The health of both APIs in one line for the status bar, and the detail for its tooltip. */

export type HealthLevel = 'healthy' | 'degraded' | 'down' | 'unknown';

export interface SystemCheckLike {
  healthy: boolean;
  status: number;
  checks: Record<string, unknown>;
}

/** What one API answered: a result, an error message, or nothing because it is not configured. */
export type ApiProbe<T> = { state: 'ok'; value: T; ms: number } | { state: 'error'; message: string; status?: number } | { state: 'skipped'; reason: string };

export interface HealthSummary {
  level: HealthLevel;
  /** Short text for the status bar. */
  text: string;
  /** Markdown lines for the tooltip. */
  detail: string[];
}

export function summarizeHealth(training: ApiProbe<SystemCheckLike>, inference: ApiProbe<unknown>): HealthSummary {
  const trainingLevel = levelOfTraining(training);
  const inferenceLevel = levelOfProbe(inference);
  const level = worst([trainingLevel, inferenceLevel]);
  const detail = [`**Training API**: ${describeTraining(training)}`, ...checkLines(training), `**Inference API**: ${describeProbe(inference)}`];
  const text = level === 'healthy' ? 'RL Studio' : level === 'degraded' ? 'RL Studio: degraded' : level === 'down' ? 'RL Studio: unreachable' : 'RL Studio: not checked';
  return { level, text, detail };
}

function levelOfTraining(probe: ApiProbe<SystemCheckLike>): HealthLevel {
  if (probe.state === 'skipped') return 'unknown';
  if (probe.state === 'error') return probe.status === 503 ? 'degraded' : 'down';
  return probe.value.healthy ? 'healthy' : 'degraded';
}

function levelOfProbe(probe: ApiProbe<unknown>): HealthLevel {
  if (probe.state === 'skipped') return 'unknown';
  if (probe.state === 'error') return probe.status === 503 || probe.status === 429 ? 'degraded' : 'down';
  return 'healthy';
}

const order: HealthLevel[] = ['healthy', 'unknown', 'degraded', 'down'];

function worst(levels: HealthLevel[]): HealthLevel {
  const known = levels.filter((level) => level !== 'unknown');
  if (known.length === 0) return 'unknown';
  return known.reduce((a, b) => (order.indexOf(b) > order.indexOf(a) ? b : a));
}

function describeTraining(probe: ApiProbe<SystemCheckLike>): string {
  if (probe.state === 'skipped') return probe.reason;
  if (probe.state === 'error') return probe.status === 503 ? `degraded (503): ${probe.message}` : `unreachable: ${probe.message}`;
  return probe.value.healthy ? `healthy (${Math.round(probe.ms)} ms)` : `degraded (${probe.value.status})`;
}

function describeProbe(probe: ApiProbe<unknown>): string {
  if (probe.state === 'skipped') return probe.reason;
  if (probe.state === 'error') return `${probe.status === 503 || probe.status === 429 ? 'degraded' : 'unreachable'}: ${probe.message}`;
  return `healthy (${Math.round(probe.ms)} ms)`;
}

function checkLines(probe: ApiProbe<SystemCheckLike>): string[] {
  if (probe.state !== 'ok') return [];
  return Object.entries(probe.value.checks).map(([name, raw]) => {
    const check = typeof raw === 'object' && raw !== null ? (raw as { success?: unknown; duration?: unknown; error?: unknown }) : {};
    const ok = check.success === true;
    const duration = typeof check.duration === 'number' ? ` ${formatSeconds(check.duration)}` : '';
    const error = typeof check.error === 'string' && check.error !== '' ? ` — ${check.error}` : '';
    return `- ${ok ? '✓' : '✗'} \`${name}\`${duration}${error}`;
  });
}

function formatSeconds(duration: number): string {
  // The wire reference does not say the unit; values below 100 read as seconds, larger as ms.
  return duration < 100 ? `${Math.round(duration * 1000)} ms` : `${Math.round(duration)} ms`;
}
