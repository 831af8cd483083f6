import assert from 'node:assert/strict';
import { PlatformError, type PlatformErrorInit } from '../../../src/platform/client/errors';
import {
  assumedLimits,
  languageModelFailure,
  limitsFromContext,
  matchesPattern,
  maxListedModels,
  maxPatterns,
  maxPickerCatalogueModels,
  planPickerModels,
  planSummary,
  readPickerPatterns,
  type PickerInput,
} from '../../../src/chat/model/pickerModels';

const checkpoint = 'wandb-artifact:///team/proj/agent:step20';

function catalogueOf(count: number, extra: Record<string, unknown> = {}): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, index) => ({ id: `org/model-${String(index).padStart(3, '0')}`, object: 'model', created: 1, owned_by: 'org', ...extra }));
}

function plan(input: Partial<PickerInput>) {
  return planPickerModels({ catalogue: [], pinned: [], trainingModels: [], patterns: ['*'], ...input });
}

function selectable(input: Partial<PickerInput>): string[] {
  return plan(input)
    .models.filter((model) => model.isUserSelectable)
    .map((model) => model.id);
}

function httpError(status: number, extra: Partial<PlatformErrorInit> = {}): PlatformError {
  return new PlatformError({ kind: 'http', api: 'inference', method: 'POST', path: '/chat/completions', status, message: `POST /chat/completions failed: ${status} nope`, ...extra });
}

describe('model picker: which models and how they are offered', () => {
  it('matches `*` as any run of characters and everything else literally, case counting', () => {
    assert.ok(matchesPattern('*', 'anything/at-all'));
    assert.ok(matchesPattern('*', ''));
    assert.ok(matchesPattern('Qwen/*', 'Qwen/Qwen3-8B'));
    assert.ok(matchesPattern('*Instruct*', 'meta-llama/Llama-3.1-8B-Instruct'));
    assert.ok(matchesPattern('a*b*c', 'aXXbYYc'));
    assert.ok(matchesPattern('a*b', 'abab'));
    assert.ok(matchesPattern('exact/id', 'exact/id'));
    assert.ok(!matchesPattern('exact/id', 'exact/id2'));
    assert.ok(!matchesPattern('qwen/*', 'Qwen/Qwen3-8B'), 'case-sensitive');
    assert.ok(!matchesPattern('Qwen.*', 'QwenX'), 'a dot is a dot, not a regex');
    assert.ok(!matchesPattern('a?c', 'abc'), 'a question mark is literal');
    assert.ok(matchesPattern('a?c', 'a?c'));
    assert.ok(!matchesPattern('a*b*c', 'aXXbYY'));
  });

  it('matches a hostile pattern against a long id without backtracking blow-up', () => {
    const pattern = `${'*a'.repeat(99)}b`;
    assert.equal(pattern.length, 199);
    assert.equal(matchesPattern(pattern, 'a'.repeat(1_000)), false);
  });

  it('reads the setting: strings of 1 to 200 characters, the first 50 entries, the default when not a list', () => {
    assert.deepEqual(readPickerPatterns(undefined), ['*']);
    assert.deepEqual(readPickerPatterns('Qwen/*'), ['*']);
    assert.deepEqual(readPickerPatterns({ 0: 'x' }), ['*']);
    assert.deepEqual(readPickerPatterns([]), []);
    assert.deepEqual(readPickerPatterns(['ok', '', 7, null, { id: 'x' }, 'x'.repeat(201), 'y'.repeat(200)]), ['ok', 'y'.repeat(200)]);
    const many = Array.from({ length: 500 }, (_, index) => `p${index}`);
    const read = readPickerPatterns(many);
    assert.equal(read.length, maxPatterns);
    assert.equal(read.at(-1), `p${maxPatterns - 1}`);
    // An entry past the 50th is not read even when the earlier ones are unusable.
    assert.deepEqual(readPickerPatterns([...Array.from({ length: 50 }, () => 7), 'late']), []);
  });

  it('offers pinned checkpoints always, and catalogue models the setting matches', () => {
    const catalogue = [{ id: 'Qwen/Qwen3-8B' }, { id: 'meta-llama/Llama-3.1-8B-Instruct' }, { id: 'Qwen/Qwen2.5-7B' }];
    const pinned = [{ id: checkpoint, pinnedAt: '2025-06-01T00:00:00Z' }];
    const result = plan({ catalogue, pinned, patterns: ['Qwen/*'] });
    assert.deepEqual(
      result.models.map((model) => [model.id, model.isUserSelectable]),
      [
        [checkpoint, true],
        ['Qwen/Qwen2.5-7B', true],
        ['Qwen/Qwen3-8B', true],
        ['meta-llama/Llama-3.1-8B-Instruct', false],
      ],
    );
    assert.deepEqual(selectable({ catalogue, pinned, patterns: [] }), [checkpoint], 'an empty setting offers the pinned checkpoints only');
    assert.deepEqual(selectable({ catalogue, pinned, patterns: ['nothing-matches'] }), [checkpoint]);
    assert.deepEqual(selectable({ catalogue, patterns: ['meta-llama/Llama-3.1-8B-Instruct'] }), ['meta-llama/Llama-3.1-8B-Instruct']);
    assert.equal(plan({ catalogue, patterns: [] }).models.length, 3, 'models not offered are still listed');
  });

  it('describes a catalogue model and a pinned checkpoint as the editor shows them', () => {
    const result = plan({ catalogue: [{ id: 'org/name', root: 'org/root', created: 1748736000 }], pinned: [{ id: checkpoint, pinnedAt: '2025-06-01T00:00:00Z' }] });
    assert.deepEqual(result.models[0], {
      id: checkpoint,
      name: 'agent · step 20',
      family: 'agent',
      version: '2025-06-01T00:00:00Z',
      detail: 'RL Studio, pinned',
      tooltip: `${checkpoint}, pinned in RL Studio and served by the training API`,
      ...assumedLimits,
      isUserSelectable: true,
    });
    assert.deepEqual(result.models[1], {
      id: 'org/name',
      name: 'name',
      family: 'org/root',
      version: '1748736000',
      detail: 'RL Studio',
      tooltip: 'org/name, served by the RL Studio inference API',
      ...assumedLimits,
      isUserSelectable: true,
    });
  });

  it('offers at most 16 catalogue models, the first by id, and says how many more matched', () => {
    const catalogue = catalogueOf(40).reverse();
    const result = plan({ catalogue });
    const offered = result.models.filter((model) => model.isUserSelectable).map((model) => model.id);
    assert.equal(offered.length, maxPickerCatalogueModels);
    assert.deepEqual(
      offered,
      catalogueOf(16).map((model) => model.id),
    );
    assert.equal(result.models.length, 40, 'the rest are listed, not offered');
    assert.equal(result.matchedBeyondCap, 24);
    assert.equal(
      planSummary(result),
      'the model picker offers 16 of 40 catalogue models (rlStudio.languageModels.pickerModels) and 0 pinned checkpoints; 24 more catalogue models matched the setting than the 16 it shows: list fewer ids or narrower patterns in the setting to choose which.',
    );
    assert.equal(
      planSummary(plan({ catalogue: catalogueOf(16), pinned: [{ id: checkpoint }] })),
      'the model picker offers 16 of 16 catalogue models (rlStudio.languageModels.pickerModels) and 1 pinned checkpoint.',
    );
    // Pinned checkpoints do not count against the 16.
    const pinned = Array.from({ length: 5 }, (_, step) => ({ id: `wandb-artifact:///t/p/m:step${step}`, pinnedAt: '' }));
    assert.equal(selectable({ catalogue, pinned }).length, 21);
  });

  it('lists at most 200 entries, the offered ones first', () => {
    const pinned = Array.from({ length: 20 }, (_, step) => ({ id: `wandb-artifact:///t/p/m:step${step}`, pinnedAt: '' }));
    const result = plan({ catalogue: catalogueOf(10_000), pinned, patterns: ['org/model-9*'] });
    assert.equal(result.models.length, maxListedModels);
    assert.equal(result.notListed, 10_020 - maxListedModels);
    assert.deepEqual(
      result.models.slice(0, 36).map((model) => model.isUserSelectable),
      Array.from({ length: 36 }, () => true),
    );
    assert.ok(result.models.slice(36).every((model) => !model.isUserSelectable));
    assert.equal(result.models[20]!.id, 'org/model-900', 'the matching catalogue models come right after the pins');
    assert.match(
      planSummary(result),
      /^the model picker offers 16 of 10000 catalogue models .* and 20 pinned checkpoints; 1084 more .*; 9820 models were not listed to the editor at all \(at most 200\)\.$/,
    );
    // Even pins past the bound are not listed.
    const manyPins = Array.from({ length: 300 }, (_, step) => ({ id: `wandb-artifact:///t/p/m:step${step}`, pinnedAt: '' }));
    assert.equal(plan({ pinned: manyPins }).models.length, maxListedModels);
  });

  it('skips catalogue entries that are not models, and lists each id once', () => {
    const catalogue: unknown[] = [null, 7, 'org/a', { id: 7 }, { id: '' }, { id: 'x'.repeat(1_001) }, { id: 'org/a', root: 42, created: 'yesterday' }, { id: 'org/a' }, { id: 'org/b', created: NaN }];
    const result = plan({ catalogue, pinned: [{ id: 3 }, { id: checkpoint }, { id: checkpoint }, null as never] });
    assert.deepEqual(
      result.models.map((model) => [model.id, model.family, model.version]),
      [
        [checkpoint, 'agent', ''],
        ['org/a', 'org/a', ''],
        ['org/b', 'org/b', ''],
      ],
    );
  });
});

describe('model picker: limits the editor is told', () => {
  it('shares a known context between prompt and answer', () => {
    assert.deepEqual(limitsFromContext(131_072), { maxInputTokens: 122_880, maxOutputTokens: 8_192, contextTokens: 131_072 });
    assert.deepEqual(limitsFromContext(16_384), { maxInputTokens: 12_288, maxOutputTokens: 4_096, contextTokens: 16_384 });
    assert.deepEqual(limitsFromContext(10_000_000), { maxInputTokens: 9_991_808, maxOutputTokens: 8_192, contextTokens: 10_000_000 });
    assert.deepEqual(limitsFromContext(2), { maxInputTokens: 1, maxOutputTokens: 1, contextTokens: 2 });
  });

  it('ignores hostile or absent values and keeps the conservative default', () => {
    for (const value of [undefined, null, 1e300, 10_000_001, Infinity, -Infinity, -1, 0, NaN, 4096.5, '131072', [131072], { value: 131072 }, true]) {
      assert.deepEqual(limitsFromContext(value), { maxInputTokens: 32_768, maxOutputTokens: 8_192 }, String(value));
    }
  });

  it("uses max_model_len from the catalogue, and a pinned checkpoint's base model's entry", () => {
    const catalogue = [{ id: 'org/big', max_model_len: 131_072 }, { id: 'org/small', max_model_len: 16_384 }, { id: 'org/hostile', max_model_len: 1e300 }, { id: 'org/silent' }];
    const trainingModels = [
      { entity: 'team', project: 'proj', name: 'agent', base_model: 'org/small' },
      { entity: 'team', project: 'proj', name: 'unknown-base', base_model: 'org/not-in-catalogue' },
      { entity: 'team', project: 'proj', name: 'added-by-id', base_model: '' },
    ];
    const pinned = [
      { id: checkpoint, pinnedAt: '' },
      { id: 'wandb-artifact:///team/proj/unknown-base:step1', pinnedAt: '' },
      { id: 'wandb-artifact:///team/proj/added-by-id:step1', pinnedAt: '' },
      { id: 'wandb-artifact:///other/proj/agent:step1', pinnedAt: '' },
    ];
    const byId = new Map(plan({ catalogue, pinned, trainingModels }).models.map((model) => [model.id, model]));
    const limits = (id: string) => [byId.get(id)!.maxInputTokens, byId.get(id)!.maxOutputTokens];
    assert.deepEqual(limits('org/big'), [122_880, 8_192]);
    assert.deepEqual(limits('org/small'), [12_288, 4_096]);
    assert.deepEqual(limits('org/hostile'), [32_768, 8_192]);
    assert.deepEqual(limits('org/silent'), [32_768, 8_192]);
    assert.deepEqual(limits(checkpoint), [12_288, 4_096], 'the base model org/small');
    assert.deepEqual(limits('wandb-artifact:///team/proj/unknown-base:step1'), [32_768, 8_192]);
    assert.deepEqual(limits('wandb-artifact:///team/proj/added-by-id:step1'), [32_768, 8_192]);
    assert.deepEqual(limits('wandb-artifact:///other/proj/agent:step1'), [32_768, 8_192], 'another entity is another model');
    assert.equal(byId.get('org/big')!.detail, 'RL Studio, 128K context');
    assert.equal(byId.get('org/big')!.tooltip, 'org/big, served by the RL Studio inference API; context 131,072 tokens');
    assert.equal(byId.get(checkpoint)!.detail, 'RL Studio, pinned, 16K context');
    assert.match(byId.get(checkpoint)!.tooltip, /; trained from org\/small; context 16,384 tokens$/);
    assert.equal(byId.get('org/silent')!.detail, 'RL Studio');
  });
});

describe('model picker: failures as the editor reports them', () => {
  it('a refused key (401) is NoPermissions and says to sign in again', () => {
    assert.deepEqual(languageModelFailure(httpError(401)), { kind: 'noPermissions', message: 'The RL Studio key was rejected (401): sign in again with RL Studio: Sign In.' });
  });

  it('a refused request (403) is NoPermissions with the reason', () => {
    const failure = languageModelFailure(httpError(403, { details: ['Region not supported'] }));
    assert.equal(failure.kind, 'noPermissions');
    assert.equal(failure.message, 'The inference API refused this request (403): Region not supported. Sign in with a key that may use this model: RL Studio: Sign In.');
  });

  it('a model the server does not have (404) is NotFound, with advice for the catalogue or a checkpoint', () => {
    assert.deepEqual(languageModelFailure(httpError(404)), {
      kind: 'notFound',
      message: 'The inference API has no such model (404). It said: "nope". It may have left the catalogue: choose another RL Studio model.',
    });
    const training = languageModelFailure(httpError(404, { api: 'training' }));
    assert.equal(training.kind, 'notFound');
    assert.equal(training.message, 'The training API has no such model (404). It said: "nope". The checkpoint may have been deleted: pin another one from the RL Studio Models view.');
  });

  it('too many requests (429) is Blocked, with the wait the server asked for in words', () => {
    assert.deepEqual(languageModelFailure(httpError(429, { retryAfterMs: 8_000 })), {
      kind: 'blocked',
      message: 'Too many requests (429): the platform asked RL Studio to slow down. It said: "nope". Try again in 8 s.',
    });
    assert.match(languageModelFailure(httpError(429, { retryAfterMs: 65_000 })).message, /Try again in 1 min 05 s\.$/);
    assert.match(languageModelFailure(httpError(429)).message, /slow down\. It said: "nope"\. Try again in a moment\.$/);
  });

  it('other statuses and failures are plain errors with the reason', () => {
    assert.deepEqual(languageModelFailure(httpError(503, { retryAfterMs: 3_000 })), {
      kind: 'other',
      message: 'The inference API is temporarily unavailable (503). It said: "nope". Try again in 3 s.',
    });
    assert.equal(languageModelFailure(httpError(402)).kind, 'other');
    assert.equal(languageModelFailure(httpError(500)).message, 'The inference API failed to answer (500). It said: "nope".');
    const refused = new PlatformError({ kind: 'network', api: 'inference', method: 'POST', path: '/chat/completions', message: 'connect ECONNREFUSED', connection: 'refused' });
    assert.deepEqual(languageModelFailure(refused), { kind: 'other', message: "Can't reach the inference API." });
    const timeout = new PlatformError({ kind: 'timeout', api: 'training', method: 'POST', path: '/chat/completions', message: 'timed out' });
    assert.deepEqual(languageModelFailure(timeout), { kind: 'other', message: 'The training API did not answer in time.' });
    assert.equal(languageModelFailure(new Error('something broke')).kind, 'other');
    assert.equal(languageModelFailure('a thrown string').message, 'A thrown string.');
  });

  it("uses the extension's words and redacts the whole message last", () => {
    const secret = 'rls-secret-key-123';
    const failure = languageModelFailure(httpError(403), {
      describe: () => ({ kind: 'forbidden', message: `The inference API refused this request (403): key ${secret} may not`, retryable: false }),
      redact: (text) => text.split(secret).join('[redacted]'),
    });
    assert.equal(failure.kind, 'noPermissions');
    assert.ok(!failure.message.includes(secret));
    assert.match(failure.message, /key \[redacted\] may not\. Sign in/);
  });
});
