/**
 * The few facts RL Studio takes from a model folder's `model.json`. The official client's local
 * backend writes the whole model there (`model_dump()`), and that includes `inference_api_key` and
 * `inference_base_url`: a secret may sit in this file. So the text is parsed, the named fields are
 * copied out as short strings, and the rest (the parsed object included) is dropped at once: nothing
 * else of the file is kept, logged or shown, and a problem with the file is described in RL
 * Studio's own words, never with a piece of its text (a JSON error message quotes the text).
 */
import { isRecord, own } from '../../platform/kit/plainValues';

export interface ModelFacts {
  /** The serving name (`name`). */
  name?: string;
  /** The team that owns it on the platform, when the script set one. */
  entity?: string;
  /** The project, as the client wrote it. */
  project?: string;
  /** The platform's model id, when the model was registered there. */
  id?: string;
  base_model?: string;
  /** The storage name of a trainable model: its folder's name. */
  run_name?: string;
  trainable?: boolean;
}

/** The only fields ever read from model.json. */
export const modelFactFields = ['name', 'entity', 'project', 'id', 'base_model', 'run_name'] as const;

/** Characters kept of a field: names and ids are short; anything longer is not one. */
export const maxFactChars = 200;

export type ModelFileReading = { ok: true; facts: ModelFacts } | { ok: false; note: string };

/** Reads model.json's text (`whole`: false when only its first bytes were read). */
export function readModelFile(text: string, whole: boolean, maxBytes: number): ModelFileReading {
  if (!whole) return { ok: false, note: `model.json is larger than ${Math.round(maxBytes / 1024)} KB, so RL Studio did not read it` };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, note: 'model.json is not valid JSON, so the name, project and base model it may hold are not known' };
  }
  if (!isRecord(value)) return { ok: false, note: 'model.json does not hold a JSON object, so the name, project and base model it may hold are not known' };
  const facts: ModelFacts = {};
  for (const field of modelFactFields) {
    const fact = own(value, field);
    if (typeof fact === 'string' && fact.trim() !== '' && fact.length <= maxFactChars) facts[field] = fact;
  }
  const trainable = own(value, 'trainable');
  if (typeof trainable === 'boolean') facts.trainable = trainable;
  return { ok: true, facts };
}
