/**
 * What a firing says: the line a notification and the log lead with, and the values of the alert
 * variables a payload template may use (their names and meanings are in the payload language's
 * catalogue, src/webhooks/model/payload/variables.ts, scope `alert`).
 */
import { quoted } from '../../platform/kit/confirmationText';
import { formatDuration } from '../../platform/kit/format';
import { describeCondition, type AlertFiring } from './alertRules';

/** A number as people read it in a message: at most 4 significant digits, no exponent for usual sizes. */
export function formatValue(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  return Number(value.toPrecision(4)).toString();
}

/** The job or model a firing is about, quoted (a name is foreign text). */
function subjectOf(firing: AlertFiring): string {
  const { context } = firing;
  if (context.jobId !== undefined) return `training job ${quoted(context.jobLabel ?? context.jobId, 80)}`;
  if (context.modelId !== undefined) return `model ${quoted(context.modelLabel ?? context.modelId, 80)}`;
  return 'a followed job';
}

/** What happened, in one line, without the rule's name: `reward was 0.12 at job step 340 of training job "run-7"`. */
export function alertMessage(firing: AlertFiring): string {
  const { rule, context } = firing;
  const subject = subjectOf(firing);
  const at = context.step !== undefined ? ` at job step ${context.step}` : '';
  const when = rule.when;
  switch (when.kind) {
    case 'job':
      if (when.job === 'failed') return `${subject} failed${at}${context.message !== undefined ? `: ${quoted(context.message, 300)}` : ''}`;
      if (when.job === 'finished') return `${subject} finished${at}`;
      return `${subject} has sent no event for ${formatDuration(context.silentMs ?? 0)}${at}: it may have stalled`;
    case 'metric': {
      const value = context.value !== undefined ? formatValue(context.value) : 'unknown';
      return `${quoted(when.metric, 80)} was ${value}${at} of ${subject} (${describeCondition(when)})`;
    }
    case 'canaryDrop': {
      const step = context.step !== undefined ? ` checkpoint at model step ${context.step}` : ' newest checkpoint';
      const score = context.value !== undefined ? ` to ${formatValue(context.value)}` : '';
      const best = context.best !== undefined ? `, best so far ${formatValue(context.best)}` : '';
      const interval = context.interval ? `; paired difference ${formatValue(context.interval[0])} to ${formatValue(context.interval[1])}` : '';
      return `the canary score of ${subject}'s${step} dropped${score}${best}${interval}`;
    }
  }
}

/** The notification and log line: the rule's name first, then what happened. */
export function alertNotice(firing: AlertFiring): string {
  return `Alert ${quoted(firing.rule.name, 100)}: ${alertMessage(firing)}.`;
}

/**
 * The alert variables' values for a payload. Each is escaped as JSON string content, since names
 * and messages are foreign text and the template puts variables inside strings: a quote in a job's
 * name cannot end the string and change the payload's shape. Variables that do not apply are blank.
 */
export function alertVariableValues(firing: AlertFiring): Record<string, string> {
  const { rule, context } = firing;
  const canary = rule.when.kind === 'canaryDrop';
  const metricName = rule.when.kind === 'metric' ? rule.when.metric : canary ? (context.metric ?? 'canary score') : '';
  const plain: Record<string, string> = {
    alert_rule: rule.name,
    alert_condition: describeCondition(rule.when),
    alert_message: alertMessage(firing),
    job_id: context.jobId ?? '',
    job_name: context.jobId !== undefined ? (context.jobLabel ?? context.jobId) : '',
    model_id: context.modelId ?? '',
    step: context.step !== undefined ? String(context.step) : '',
    metric_name: metricName,
    metric_value: metricName !== '' && context.value !== undefined && Number.isFinite(context.value) ? String(context.value) : '',
  };
  const escaped: Record<string, string> = {};
  for (const [name, value] of Object.entries(plain)) escaped[name] = JSON.stringify(value).slice(1, -1);
  return escaped;
}
