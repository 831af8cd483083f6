/**
 * Alert rules as a team commits them (`.rlstudio/alerts.json`): when a followed job finishes,
 * fails or stalls, when a metric stays above or below a value for N steps, or when a checkpoint's
 * canary score drops, do something: tell the person, run a VS Code command, or send a payload
 * template to one of their webhooks. The file is a stranger's data: it is read here into rules and
 * problems (each with the path of the value it is about); what its actions may do is decided by the
 * host (a command asks once; a webhook must be one the person set up).
 */
import { parseStrictJson } from '../../platform/kit/strictJson';
import { isRecord, own } from '../../platform/kit/plainValues';
import { workspaceRelativePath } from './workspacePath';

export type JobCondition = 'finished' | 'failed' | 'stalled';

export type AlertCondition = { kind: 'job'; job: JobCondition } | { kind: 'metric'; metric: string; above?: number; below?: number; forSteps: number } | { kind: 'canaryDrop' };

export type AlertAction =
  | { kind: 'notify'; level: 'info' | 'warning' | 'error' }
  | { kind: 'command'; command: string }
  | {
      kind: 'webhook';
      /** One of the person's webhooks, by name or id. */
      webhook: string;
      /** The payload template, relative to the workspace folder that holds the file. */
      payload: string;
      /** Where the action is in its file: `rules[2].do[1]`. */
      path: string;
    };

export interface AlertRule {
  /** Where the rule is in its file: `rules[2]`. */
  path: string;
  name: string;
  when: AlertCondition;
  actions: AlertAction[];
}

export interface RuleProblem {
  /** Where in the file: `rules[2].when.forSteps`. */
  path: string;
  message: string;
  severity: 'error' | 'warning';
}

export const maxRules = 100;
const maxNameChars = 100;
const maxSteps = 10_000;
const maxActions = 5;

/** The rules a file holds, and what is wrong with it; a rule with an error is left out, the others kept. */
export function parseAlertRules(text: string): { rules: AlertRule[]; problems: RuleProblem[] } {
  const problems: RuleProblem[] = [];
  const parsed = parseStrictJson(text);
  if (!parsed.ok) return { rules: [], problems: [{ path: '', message: `not valid JSON (${parsed.error.message})`, severity: 'error' }] };
  const root = parsed.value;
  const list = isRecord(root) ? own(root, 'rules') : undefined;
  if (!Array.isArray(list)) return { rules: [], problems: [{ path: 'rules', message: 'the file must be an object with a "rules" array', severity: 'error' }] };
  if (list.length > maxRules) problems.push({ path: 'rules', message: `${list.length} rules: the first ${maxRules} are read`, severity: 'warning' });
  const rules: AlertRule[] = [];
  list.slice(0, maxRules).forEach((value, index) => {
    const rule = readRule(value, `rules[${index}]`, problems);
    if (rule) rules.push(rule);
  });
  return { rules, problems };
}

function readRule(value: unknown, path: string, problems: RuleProblem[]): AlertRule | undefined {
  const error = (where: string, message: string) => {
    problems.push({ path: where, message, severity: 'error' });
    return undefined;
  };
  if (!isRecord(value)) return error(path, 'a rule is an object with "name", "when" and "do"');
  const name = own(value, 'name');
  if (typeof name !== 'string' || name.trim() === '') return error(`${path}.name`, 'a rule needs a name (text)');
  if (name.length > maxNameChars) return error(`${path}.name`, `a rule's name is at most ${maxNameChars} characters`);
  for (const key of Object.keys(value))
    if (!['name', 'when', 'do'].includes(key)) problems.push({ path: `${path}.${key}`, message: `"${key}" is not part of a rule and is ignored`, severity: 'warning' });
  const when = readCondition(own(value, 'when'), `${path}.when`, problems);
  const actions = readActions(own(value, 'do'), `${path}.do`, problems);
  if (!when || !actions) return undefined;
  return { path, name: name.trim(), when, actions };
}

function readCondition(value: unknown, path: string, problems: RuleProblem[]): AlertCondition | undefined {
  const error = (where: string, message: string) => {
    problems.push({ path: where, message, severity: 'error' });
    return undefined;
  };
  if (!isRecord(value)) return error(path, 'a rule needs "when": {"job": "failed"}, {"metric": "reward", "below": 0.2, "forSteps": 3} or {"canary": "drop"}');
  const job = own(value, 'job');
  if (job !== undefined) {
    if (job !== 'finished' && job !== 'failed' && job !== 'stalled') return error(`${path}.job`, '"job" is "finished", "failed" or "stalled"');
    return { kind: 'job', job };
  }
  if (own(value, 'canary') !== undefined) {
    if (own(value, 'canary') !== 'drop') return error(`${path}.canary`, '"canary" is "drop"');
    return { kind: 'canaryDrop' };
  }
  const metric = own(value, 'metric');
  if (typeof metric !== 'string' || metric === '' || metric.length > 200) return error(path, 'a condition names a "job" outcome, a "metric" (text) or the "canary"');
  const above = own(value, 'above');
  const below = own(value, 'below');
  if (above !== undefined && (typeof above !== 'number' || !Number.isFinite(above))) return error(`${path}.above`, '"above" is a number');
  if (below !== undefined && (typeof below !== 'number' || !Number.isFinite(below))) return error(`${path}.below`, '"below" is a number');
  if (above === undefined && below === undefined) return error(path, 'a metric condition needs "above" or "below"');
  const forSteps = own(value, 'forSteps') ?? 1;
  if (typeof forSteps !== 'number' || !Number.isInteger(forSteps) || forSteps < 1 || forSteps > maxSteps) return error(`${path}.forSteps`, `"forSteps" is a whole number from 1 to ${maxSteps}`);
  return { kind: 'metric', metric, ...(above !== undefined ? { above: above as number } : {}), ...(below !== undefined ? { below: below as number } : {}), forSteps };
}

function readActions(value: unknown, path: string, problems: RuleProblem[]): AlertAction[] | undefined {
  if (!Array.isArray(value) || value.length === 0) {
    problems.push({ path, message: 'a rule needs "do": a list of {"notify": "warning"}, {"command": "…"} or {"webhook": "…", "payload": "…"}', severity: 'error' });
    return undefined;
  }
  if (value.length > maxActions) problems.push({ path, message: `${value.length} actions: the first ${maxActions} are read`, severity: 'warning' });
  const actions: AlertAction[] = [];
  value.slice(0, maxActions).forEach((item, index) => {
    const where = `${path}[${index}]`;
    if (!isRecord(item)) {
      problems.push({ path: where, message: 'an action is an object', severity: 'error' });
      return;
    }
    const notify = own(item, 'notify');
    const command = own(item, 'command');
    const webhook = own(item, 'webhook');
    if (notify !== undefined) {
      if (notify !== 'info' && notify !== 'warning' && notify !== 'error') problems.push({ path: `${where}.notify`, message: '"notify" is "info", "warning" or "error"', severity: 'error' });
      else actions.push({ kind: 'notify', level: notify });
    } else if (command !== undefined) {
      if (typeof command !== 'string' || !/^[\w.-]{1,200}$/.test(command)) problems.push({ path: `${where}.command`, message: '"command" is a VS Code command id', severity: 'error' });
      else actions.push({ kind: 'command', command });
    } else if (webhook !== undefined) {
      const payload = own(item, 'payload');
      if (typeof webhook !== 'string' || webhook === '' || webhook.length > 200) problems.push({ path: `${where}.webhook`, message: '"webhook" names one of your webhooks', severity: 'error' });
      else if (typeof payload !== 'string' || payload === '' || payload.length > 500)
        problems.push({ path: `${where}.payload`, message: '"payload" is the workspace path of a payload template', severity: 'error' });
      else {
        const inside = workspaceRelativePath(payload);
        if ('problem' in inside) problems.push({ path: `${where}.payload`, message: inside.problem, severity: 'error' });
        else actions.push({ kind: 'webhook', webhook, payload, path: where });
      }
    } else {
      problems.push({ path: where, message: 'an action is {"notify": …}, {"command": …} or {"webhook": …, "payload": …}', severity: 'error' });
    }
  });
  return actions.length > 0 ? actions : undefined;
}

/** What a firing knows, for its message and a payload's variables. */
export interface AlertContext {
  jobId?: string;
  /** The job as the Training Jobs view names it (foreign text: quoted wherever it is shown). */
  jobLabel?: string;
  modelId?: string;
  /** The model as the Models view names it (foreign text: quoted wherever it is shown). */
  modelLabel?: string;
  /** The job step (job rules), or the checkpoint's model step (canary drops). */
  step?: number;
  metric?: string;
  value?: number;
  /** The server's own words: a failed job's error message (foreign text). */
  message?: string;
  /** How long a stalled job has been silent. */
  silentMs?: number;
  /** A canary drop: the best score so far, and the interval of the paired difference against it. */
  best?: number;
  interval?: readonly [number, number];
}

export interface AlertFiring {
  rule: AlertRule;
  context: AlertContext;
}

/** Streaks kept at most (rules × jobs): a misuse cannot grow them without bound. */
const maxStreaks = 10_000;

/**
 * Decides when rules fire. A job outcome fires its rules once per job; a metric rule fires when the
 * metric has been beyond its value for `forSteps` steps in a row of one job, once per such stretch
 * (it fires again only after the metric came back and crossed again); a canary drop fires its rules
 * each time the canary reports one.
 */
export class AlertEngine {
  private readonly streaks = new Map<string, { count: number; fired: boolean; lastStep: number }>();
  private readonly firedJobOutcomes = new Set<string>();

  constructor(private rules: readonly AlertRule[]) {}

  setRules(rules: readonly AlertRule[]): void {
    this.rules = rules;
    this.streaks.clear();
  }

  jobOutcome(outcome: JobCondition, context: AlertContext): AlertFiring[] {
    const key = `${context.jobId ?? ''}:${outcome}`;
    if (this.firedJobOutcomes.has(key) && outcome !== 'stalled') return [];
    if (this.firedJobOutcomes.size < maxStreaks) this.firedJobOutcomes.add(key);
    return this.rules.filter((rule) => rule.when.kind === 'job' && rule.when.job === outcome).map((rule) => ({ rule, context }));
  }

  /** A job reported `value` for `metric` at `step` (steps of one job come in order; a repeated step is ignored). */
  metric(jobId: string, metric: string, step: number, value: number, context: AlertContext): AlertFiring[] {
    const firings: AlertFiring[] = [];
    this.rules.forEach((rule, index) => {
      const when = rule.when;
      if (when.kind !== 'metric' || when.metric !== metric || !Number.isFinite(value)) return;
      const key = `${index}:${jobId}`;
      let streak = this.streaks.get(key);
      if (!streak) {
        if (this.streaks.size >= maxStreaks) return;
        streak = { count: 0, fired: false, lastStep: -Infinity };
        this.streaks.set(key, streak);
      }
      if (step <= streak.lastStep) return;
      streak.lastStep = step;
      const beyond = (when.above !== undefined && value > when.above) || (when.below !== undefined && value < when.below);
      if (!beyond) {
        streak.count = 0;
        streak.fired = false;
        return;
      }
      streak.count++;
      if (streak.count >= when.forSteps && !streak.fired) {
        streak.fired = true;
        firings.push({ rule, context: { ...context, jobId, metric, step, value } });
      }
    });
    return firings;
  }

  /** True while `rule` has fired for `jobId` and its metric has not come back since. */
  stillBeyond(rule: AlertRule, jobId: string): boolean {
    return this.streaks.get(`${this.rules.indexOf(rule)}:${jobId}`)?.fired === true;
  }

  canaryDrop(context: AlertContext): AlertFiring[] {
    return this.rules.filter((rule) => rule.when.kind === 'canaryDrop').map((rule) => ({ rule, context }));
  }
}

/** "reward below 0.2 for 3 steps": a rule's condition in words, for its notification and the log. */
export function describeCondition(when: AlertCondition): string {
  if (when.kind === 'job') return `a job ${when.job}`;
  if (when.kind === 'canaryDrop') return 'the canary score dropped';
  const bounds = [when.above !== undefined ? `above ${when.above}` : '', when.below !== undefined ? `below ${when.below}` : ''].filter(Boolean).join(' or ');
  return `${when.metric} ${bounds}${when.forSteps > 1 ? ` for ${when.forSteps} steps` : ''}`;
}

/**
 * The same for the same firing in every window (the rule, and the job outcome, job step or
 * checkpoint it fired for), so that one window acts on it and the others stay quiet.
 */
export function firingKey(firing: AlertFiring): string {
  const { rule, context } = firing;
  const when = rule.when;
  const at = context.step ?? '';
  if (when.kind === 'job') return `${rule.name}\njob:${context.jobId ?? ''}:${when.job}${when.job === 'stalled' ? `:${at}:${context.silentMs ?? ''}` : ''}`;
  if (when.kind === 'metric') return `${rule.name}\nmetric:${context.jobId ?? ''}:${at}`;
  return `${rule.name}\ncanary:${context.modelId ?? ''}:${at}:${context.value ?? ''}`;
}
