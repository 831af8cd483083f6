import assert from 'node:assert/strict';
import { onFirstUse } from '../../../../src/platform/host/lazy/onFirstUse';

describe('features loaded on first use', () => {
  const quietLog = () => {
    const lines: string[] = [];
    return { lines, debug: (line: string) => void lines.push(line) };
  };

  it('loads once, on the first call, and logs how long it took', () => {
    const log = quietLog();
    let loads = 0;
    const feature = onFirstUse('sidebar', log, () => ({ id: ++loads }));
    assert.equal(loads, 0, 'nothing is loaded before the first call');
    const first = feature();
    assert.equal(feature(), first);
    assert.equal(loads, 1);
    assert.equal(log.lines.length, 1);
    assert.match(log.lines[0]!, /^sidebar loaded in \d+\.\d ms$/);
  });

  it('tries again after a failed load', () => {
    let attempts = 0;
    const feature = onFirstUse('chat', quietLog(), () => {
      attempts++;
      if (attempts === 1) throw new Error('bundle missing');
      return 'chat';
    });
    assert.throws(() => feature(), /bundle missing/);
    assert.equal(feature(), 'chat');
    assert.equal(attempts, 2);
  });

  it('loads the same without a log, for a part loaded where none is at hand', () => {
    const core = onFirstUse('payload core', undefined, () => ({ parsed: true }));
    assert.equal(core(), core());
  });

  it('refuses a feature that asks for itself while it loads, instead of recursing', () => {
    const feature: () => unknown = onFirstUse('payload', quietLog(), () => feature());
    assert.throws(() => feature(), /payload was asked for while it was loading/);
  });
});
