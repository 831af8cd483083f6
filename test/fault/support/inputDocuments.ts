/**
 * Hostile documents for the input cases: nesting far deeper than any parser's stack, files larger
 * than anything the extension sends, and payloads that are nothing but variables.
 */

/** `depth` arrays inside each other, closed or (for broken JSON) left open. */
export function nestedArrays(depth: number, closed = true): string {
  return '['.repeat(depth) + (closed ? ']'.repeat(depth) : '');
}

/** `depth` objects inside each other under key "a", around `inner`. */
export function nestedObjects(depth: number, inner = '1'): string {
  return '{"a":'.repeat(depth) + inner + '}'.repeat(depth);
}

/** A valid trajectory group as one .jsonl line of about 1 KB. */
export function trajectoryLine(index: number): string {
  return JSON.stringify({
    trajectories: [
      {
        messages_and_choices: [
          { role: 'system', content: 'You answer in one word.' },
          { role: 'user', content: `Question ${index}: ${'why '.repeat(100)}` },
          { finish_reason: 'stop', message: { role: 'assistant', content: `Because ${'so '.repeat(100)}` } },
        ],
        reward: (index % 10) / 10,
      },
    ],
    metadata: { index },
  });
}

/** A .jsonl file of valid groups, at least `bytes` long. */
export function jsonlOfSize(bytes: number): string {
  const lines: string[] = [];
  let length = 0;
  for (let index = 0; length < bytes; index++) {
    const line = trajectoryLine(index);
    lines.push(line);
    length += line.length + 1;
  }
  return lines.join('\n');
}

/** A payload template whose one string holds `count` references made by `reference(index)`. */
export function payloadOfReferences(count: number, reference: (index: number) => string): string {
  const parts: string[] = [];
  for (let index = 0; index < count; index++) parts.push(reference(index));
  return `{"text": "${parts.join(' ')}"}`;
}

/** An automation that watches alias additions with `aliasRegex`, and sends `payload` (JSON text). */
export function aliasAutomation(aliasRegex: string, payload = '{"e": "${event_type}"}'): string {
  return `{"name": "deploy", "webhook": "hook", "event": {"type": "ADD_ARTIFACT_ALIAS", "aliasRegex": ${JSON.stringify(aliasRegex)}}, "payload": ${payload}}`;
}
