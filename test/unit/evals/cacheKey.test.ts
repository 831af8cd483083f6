import * as assert from 'node:assert/strict';
import { cacheKey, drawSeed } from '../../../src/evals/model/cacheKey';
import { parameters, sample } from './evalFixtures';

describe('cache key', () => {
  const base = sample('s1', 'Capital of France?', 'Paris');
  const key = cacheKey('model-a', base, parameters, 0);

  it('is a 32-digit hex string, the same for the same model, sample, parameters and draw', () => {
    assert.match(key, /^[0-9a-f]{32}$/);
    assert.equal(cacheKey('model-a', { ...base, messages: [{ content: 'Capital of France?', role: 'user' }] }, { ...parameters }, 0), key);
  });

  it('changes with the model, the prompt, the reference, the id, each parameter and the draw', () => {
    const others = [
      cacheKey('model-b', base, parameters, 0),
      cacheKey('model-a', sample('s1', 'Capital of Spain?', 'Paris'), parameters, 0),
      cacheKey('model-a', sample('s1', 'Capital of France?', 'paris'), parameters, 0),
      cacheKey('model-a', sample('s2', 'Capital of France?', 'Paris'), parameters, 0),
      cacheKey('model-a', base, { ...parameters, temperature: 0.8 }, 0),
      cacheKey('model-a', base, { ...parameters, seed: 43 }, 0),
      cacheKey('model-a', base, { ...parameters, maxTokens: 512 }, 0),
      cacheKey('model-a', base, { ...parameters, topP: 0.9 }, 0),
      cacheKey('model-a', base, parameters, 1),
    ];
    assert.equal(new Set([key, ...others]).size, others.length + 1);
  });

  it('ignores n and the metadata, which change no request', () => {
    assert.equal(cacheKey('model-a', base, { ...parameters, n: 8 }, 0), key);
    assert.equal(cacheKey('model-a', { ...base, metadata: { topic: 'geo' }, line: 9 } as typeof base, parameters, 0), key);
  });

  it('gives each draw its own fixed seed', () => {
    assert.deepEqual(
      [0, 1, 2].map((draw) => drawSeed(parameters, draw)),
      [42, 43, 44],
    );
  });
});
