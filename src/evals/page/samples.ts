/**
 * The eval set's samples as the page shows them: each prompt's messages and its reference. The
 * snapshot of a run carries them in `samples` (read defensively: a host that sends none leaves the
 * page with sample ids only, and a hostile or broken one cannot make it hold more than the limits).
 */
import { evalLimits } from '../model/evalModel';
import { previewChars, type SampleView } from '../protocol';

/** Messages kept per sample, and characters per message and reference (a prompt is shown, never scored, here). */
const maxMessages = 64;
const maxTextChars = previewChars * 8;

export function parseSamples(raw: unknown): SampleView[] {
  if (!Array.isArray(raw)) return [];
  const samples: SampleView[] = [];
  const seen = new Set<string>();
  for (const entry of raw.slice(0, evalLimits.samples)) {
    if (!isRecord(entry) || typeof entry.id !== 'string' || seen.has(entry.id)) continue;
    seen.add(entry.id);
    const messages = Array.isArray(entry.messages)
      ? entry.messages
          .slice(0, maxMessages)
          .filter(isRecord)
          .map((message) => ({ role: typeof message.role === 'string' ? message.role.slice(0, 40) : '', content: typeof message.content === 'string' ? message.content.slice(0, maxTextChars) : '' }))
      : [];
    const sample: SampleView = { id: entry.id, line: typeof entry.line === 'number' && Number.isSafeInteger(entry.line) ? entry.line : samples.length, messages };
    if (typeof entry.reference === 'string') sample.reference = entry.reference.slice(0, maxTextChars);
    samples.push(sample);
  }
  return samples;
}

/** The text a person recognises a sample by: its last user message (else its last message). */
export function promptOf(sample: SampleView | undefined): string {
  if (!sample) return '';
  for (let at = sample.messages.length - 1; at >= 0; at--) if (sample.messages[at]!.role === 'user') return sample.messages[at]!.content;
  return sample.messages[sample.messages.length - 1]?.content ?? '';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
