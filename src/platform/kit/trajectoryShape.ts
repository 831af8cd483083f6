/**
 * The trajectory-group shape of the wire reference, checked on parsed JSON values before anything
 * is sent. Only what the platform requires is an error; keys it does not name are accepted
 * (metadata and metrics are open), so a valid file is never flagged.
 *
 * An optional field written as `null` is absent: the official Python client serialises every unset
 * optional field that way (`"tools": null`, `"logprobs": null`, `"tool_calls": null`), and its
 * files go to the same service.
 */

export type JsonPath = (string | number)[];

export interface ShapeIssue {
  /** Path of the offending value (or of the object missing a key) inside the group. */
  path: JsonPath;
  message: string;
  severity: 'error' | 'warning';
  /** The key that is missing, when the issue is a missing key. */
  missingKey?: string;
}

const chatRoles = new Set(['system', 'user', 'assistant', 'tool', 'developer']);

/** Issues listed per group; the rest are counted in one closing issue, so a huge group cannot fill memory. */
export const maxIssuesPerGroup = 100;

/** Keeps the first `limit` issues and counts the others by severity. */
class IssueList {
  readonly listed: ShapeIssue[] = [];
  private hiddenErrors = 0;
  private hiddenWarnings = 0;

  constructor(private readonly limit: number) {}

  push(issue: ShapeIssue): void {
    if (this.listed.length < this.limit) this.listed.push(issue);
    else if (issue.severity === 'error') this.hiddenErrors++;
    else this.hiddenWarnings++;
  }

  /** The listed issues, then one that says how many more there are (an error if any of them is). */
  result(): ShapeIssue[] {
    const hidden = this.hiddenErrors + this.hiddenWarnings;
    if (hidden === 0) return this.listed;
    const summary = `${hidden} more problem${hidden === 1 ? '' : 's'} in this group not listed: fix the ones above first`;
    return [...this.listed, this.hiddenErrors > 0 ? error([], summary) : warning([], summary)];
  }
}

export function validateTrajectoryGroup(value: unknown, limit = maxIssuesPerGroup): ShapeIssue[] {
  const issues = new IssueList(limit);
  collectGroupIssues(value, issues);
  return issues.result();
}

function collectGroupIssues(value: unknown, issues: IssueList): void {
  if (!isObject(value)) {
    issues.push(error([], `a trajectory group must be an object with "trajectories", not ${describe(value)}`));
    return;
  }
  if (!('trajectories' in value)) {
    issues.push({ ...error([], 'missing "trajectories": a trajectory group needs an array of trajectories'), missingKey: 'trajectories' });
  } else if (!Array.isArray(value.trajectories)) {
    issues.push(error(['trajectories'], `"trajectories" must be an array, not ${describe(value.trajectories)}`));
  } else if (value.trajectories.length === 0) {
    issues.push(error(['trajectories'], '"trajectories" is empty: a group needs at least one trajectory'));
  } else {
    value.trajectories.forEach((trajectory, index) => validateTrajectory(trajectory, ['trajectories', index], issues));
  }
  if (value.exceptions != null) validateExceptions(value.exceptions, issues);
  optionalObject(value, 'metadata', [], issues);
  optionalMetrics(value, [], issues);
  optionalStrings(value, 'logs', [], issues);
}

function validateTrajectory(value: unknown, path: JsonPath, issues: IssueList): void {
  if (!isObject(value)) {
    issues.push(error(path, `a trajectory must be an object with "messages_and_choices" and "reward", not ${describe(value)}`));
    return;
  }
  if (!('messages_and_choices' in value)) {
    issues.push({ ...error(path, 'missing "messages_and_choices"'), missingKey: 'messages_and_choices' });
  } else if (!Array.isArray(value.messages_and_choices)) {
    issues.push(error([...path, 'messages_and_choices'], `"messages_and_choices" must be an array, not ${describe(value.messages_and_choices)}`));
  } else if (value.messages_and_choices.length === 0) {
    issues.push(error([...path, 'messages_and_choices'], '"messages_and_choices" is empty'));
  } else {
    let choices = 0;
    value.messages_and_choices.forEach((item, index) => {
      if (validateMessageOrChoice(item, [...path, 'messages_and_choices', index], issues) === 'choice') choices++;
    });
    if (choices === 0) {
      issues.push(warning([...path, 'messages_and_choices'], 'no choice in "messages_and_choices": this trajectory has nothing to train on'));
    }
  }
  if (!('reward' in value)) {
    issues.push({ ...error(path, 'missing "reward": every trajectory needs a numeric reward'), missingKey: 'reward' });
  } else if (typeof value.reward !== 'number' || !Number.isFinite(value.reward)) {
    issues.push(error([...path, 'reward'], `"reward" must be a number, not ${describe(value.reward)}`));
  }
  optionalArray(value, 'tools', path, issues);
  validateHistories(value.additional_histories, [...path, 'additional_histories'], issues);
  optionalObject(value, 'metadata', path, issues);
  optionalMetrics(value, path, issues);
  optionalStrings(value, 'logs', path, issues);
}

/** Other conversations of the trajectory (a judge's, a sub-agent's), each `{"messages_and_choices", "tools"?}`. */
function validateHistories(value: unknown, path: JsonPath, issues: IssueList): void {
  if (value == null) return;
  if (!Array.isArray(value)) {
    issues.push(error(path, `"additional_histories" must be an array, not ${describe(value)}`));
    return;
  }
  value.forEach((history, index) => {
    const at = [...path, index];
    if (!isObject(history)) {
      issues.push(error(at, `an additional history must be an object with "messages_and_choices", not ${describe(history)}`));
      return;
    }
    if (!('messages_and_choices' in history)) {
      issues.push({ ...error(at, 'missing "messages_and_choices"'), missingKey: 'messages_and_choices' });
    } else if (!Array.isArray(history.messages_and_choices)) {
      issues.push(error([...at, 'messages_and_choices'], `"messages_and_choices" must be an array, not ${describe(history.messages_and_choices)}`));
    } else {
      history.messages_and_choices.forEach((item, position) => validateMessageOrChoice(item, [...at, 'messages_and_choices', position], issues));
    }
    optionalArray(history, 'tools', at, issues);
  });
}

function validateMessageOrChoice(value: unknown, path: JsonPath, issues: IssueList): 'message' | 'choice' | undefined {
  if (!isObject(value)) {
    issues.push(error(path, `expected a chat message {"role", "content"} or a choice {"finish_reason", "message"}, not ${describe(value)}`));
    return undefined;
  }
  if ('finish_reason' in value || ('message' in value && !('role' in value))) {
    validateChoice(value, path, issues);
    return 'choice';
  }
  if (!('role' in value)) {
    issues.push(error(path, 'expected a chat message {"role", "content"} or a choice {"finish_reason", "message"}: this object has neither "role" nor "finish_reason"'));
    return undefined;
  }
  if (typeof value.role !== 'string') {
    issues.push(error([...path, 'role'], `"role" must be a string, not ${describe(value.role)}`));
  } else if (!chatRoles.has(value.role)) {
    issues.push(warning([...path, 'role'], `unusual role "${shortened(value.role)}": expected system, user, assistant or tool`));
  }
  validateContent(value, path, value.role === 'assistant' && Array.isArray(value.tool_calls), issues);
  optionalArray(value, 'tool_calls', path, issues);
  return 'message';
}

function validateChoice(value: Record<string, unknown>, path: JsonPath, issues: IssueList): void {
  if (!('finish_reason' in value)) {
    issues.push({ ...error(path, 'a choice needs "finish_reason" (for example "stop")'), missingKey: 'finish_reason' });
  } else if (typeof value.finish_reason !== 'string') {
    issues.push(error([...path, 'finish_reason'], `"finish_reason" must be a string, not ${describe(value.finish_reason)}`));
  }
  if ('index' in value && (typeof value.index !== 'number' || !Number.isInteger(value.index))) {
    issues.push(error([...path, 'index'], `"index" must be an integer, not ${describe(value.index)}`));
  }
  if (!('message' in value)) {
    issues.push({ ...error(path, 'a choice needs "message": the assistant message that was generated'), missingKey: 'message' });
    return;
  }
  const message = value.message;
  if (!isObject(message)) {
    issues.push(error([...path, 'message'], `"message" must be an object {"role": "assistant", "content"}, not ${describe(message)}`));
    return;
  }
  if (message.role !== 'assistant') {
    issues.push(error([...path, 'message', 'role'], `a choice's message must have role "assistant", not ${describe(message.role)}`));
  }
  validateContent(message, [...path, 'message'], true, issues);
  optionalArray(message, 'tool_calls', [...path, 'message'], issues);
}

function validateContent(value: Record<string, unknown>, path: JsonPath, nullAllowed: boolean, issues: IssueList): void {
  if (!('content' in value)) {
    if (!nullAllowed) issues.push({ ...error(path, 'missing "content"'), missingKey: 'content' });
    return;
  }
  const content = value.content;
  if (typeof content === 'string' || Array.isArray(content)) return;
  if (content === null && nullAllowed) return;
  issues.push(error([...path, 'content'], `"content" must be a string, not ${describe(content)}`));
}

function validateExceptions(value: unknown, issues: IssueList): void {
  if (!Array.isArray(value)) {
    issues.push(error(['exceptions'], `"exceptions" must be an array, not ${describe(value)}`));
    return;
  }
  value.forEach((item, index) => {
    const path = ['exceptions', index];
    if (!isObject(item)) {
      issues.push(error(path, `an exception must be an object {"type", "message"}, not ${describe(item)}`));
      return;
    }
    for (const key of ['type', 'message'] as const) {
      if (!(key in item)) issues.push({ ...error(path, `an exception needs "${key}"`), missingKey: key });
      else if (typeof item[key] !== 'string') issues.push(error([...path, key], `"${key}" must be a string, not ${describe(item[key])}`));
    }
  });
}

function optionalObject(owner: Record<string, unknown>, key: string, path: JsonPath, issues: IssueList): void {
  if (owner[key] == null || isObject(owner[key])) return;
  issues.push(error([...path, key], `"${key}" must be an object, not ${describe(owner[key])}`));
}

function optionalArray(owner: Record<string, unknown>, key: string, path: JsonPath, issues: IssueList): void {
  if (owner[key] == null || Array.isArray(owner[key])) return;
  issues.push(error([...path, key], `"${key}" must be an array, not ${describe(owner[key])}`));
}

function optionalStrings(owner: Record<string, unknown>, key: string, path: JsonPath, issues: IssueList): void {
  const value = owner[key];
  if (value == null) return;
  if (!Array.isArray(value)) {
    issues.push(error([...path, key], `"${key}" must be an array of strings, not ${describe(value)}`));
    return;
  }
  value.forEach((item, index) => {
    if (typeof item !== 'string') issues.push(error([...path, key, index], `"${key}" holds strings, not ${describe(item)}`));
  });
}

function optionalMetrics(owner: Record<string, unknown>, path: JsonPath, issues: IssueList): void {
  const value = owner.metrics;
  if (value == null) return;
  if (!isObject(value)) {
    issues.push(error([...path, 'metrics'], `"metrics" must be an object of numbers, not ${describe(value)}`));
    return;
  }
  for (const [name, metric] of Object.entries(value)) {
    const ok = (typeof metric === 'number' && Number.isFinite(metric)) || typeof metric === 'boolean';
    if (!ok) issues.push(error([...path, 'metrics', name], `metric "${shortened(name)}" must be a number or a boolean, not ${describe(metric)}`));
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A name from the file, cut so that a message stays one readable line. */
function shortened(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return value.length > 24 ? 'a string' : `the string "${value}"`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value === 'number' ? 'the number' : typeof value === 'boolean' ? 'the boolean' : typeof value} ${String(value)}`;
}

function error(path: JsonPath, message: string): ShapeIssue {
  return { path, message, severity: 'error' };
}

function warning(path: JsonPath, message: string): ShapeIssue {
  return { path, message, severity: 'warning' };
}
