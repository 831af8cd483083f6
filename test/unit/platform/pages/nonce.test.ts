import assert from 'node:assert/strict';
import { createNonce } from '../../../../src/platform/pages/host/nonce';

describe('webview nonce', () => {
  it('is 32 letters and digits by default, or as long as asked', () => {
    assert.match(createNonce(), /^[A-Za-z0-9]{32}$/);
    assert.match(createNonce(48), /^[A-Za-z0-9]{48}$/);
  });

  it('is fresh every time', () => {
    const nonces = new Set(Array.from({ length: 500 }, () => createNonce()));
    assert.equal(nonces.size, 500);
  });

  it('uses every character equally often (no modulo bias)', () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 20_000; i++) {
      for (const char of createNonce()) counts.set(char, (counts.get(char) ?? 0) + 1);
    }
    assert.equal(counts.size, 62);
    const values = [...counts.values()];
    // 640,000 characters: about 10,300 each, a standard deviation near 100. Taking bytes modulo 62
    // would give the first eight characters a quarter more.
    assert.ok(Math.max(...values) / Math.min(...values) < 1.1, `counts range from ${Math.min(...values)} to ${Math.max(...values)}`);
  });
});
