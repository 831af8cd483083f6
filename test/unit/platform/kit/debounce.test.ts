import assert from 'node:assert/strict';
import { KeyedDebounce } from '../../../../src/platform/kit/debounce';
import { FakeClock } from '../../support/fakeClock';

describe('keyed debounce', () => {
  it("runs a key's last work once its changes pause, each key on its own", async () => {
    const clock = new FakeClock();
    const debounce = new KeyedDebounce<string>(clock);
    const ran: string[] = [];
    for (let edit = 0; edit < 10; edit++) {
      debounce.schedule('a', 300, () => ran.push(`a${edit}`));
      await clock.advance(100);
    }
    debounce.schedule('b', 300, () => ran.push('b'));
    assert.deepEqual(ran, [], 'a was changed every 100 ms: still waiting');
    await clock.advance(300);
    assert.deepEqual(ran, ['a9', 'b']);
    assert.equal(debounce.size, 0, 'a key leaves once its work ran');
    assert.equal(clock.pending(), 0);
  });

  it('runs work scheduled with no wait after the call, not inside it', async () => {
    const clock = new FakeClock();
    const debounce = new KeyedDebounce<string>(clock);
    let ran = false;
    debounce.schedule('a', 0, () => (ran = true));
    assert.equal(ran, false);
    await clock.advance(0);
    assert.equal(ran, true);
  });

  it("cancels one key's work, and all of it on dispose, after which nothing is scheduled", async () => {
    const clock = new FakeClock();
    const debounce = new KeyedDebounce<string>(clock);
    const ran: string[] = [];
    debounce.schedule('a', 50, () => ran.push('a'));
    debounce.schedule('b', 50, () => ran.push('b'));
    debounce.cancel('a');
    assert.equal(debounce.isPending('a'), false);
    debounce.dispose();
    debounce.schedule('c', 50, () => ran.push('c'));
    await clock.advance(1_000);
    assert.deepEqual(ran, []);
    assert.equal(clock.pending(), 0, 'no timer outlives dispose');
  });

  it('holds at most its bound of waiting keys: past it, the one waiting longest runs at once', async () => {
    const clock = new FakeClock();
    const debounce = new KeyedDebounce<number>(clock, 3);
    const ran: number[] = [];
    for (let key = 0; key < 10_000; key++) {
      debounce.schedule(key, 1_000, () => ran.push(key));
      assert.ok(debounce.size <= 3);
    }
    assert.equal(clock.pending(), 3, 'one timer per waiting key');
    assert.deepEqual(ran.slice(0, 3), [0, 1, 2]);
    assert.equal(ran.length, 9_997, 'nothing is dropped');
    await clock.advance(1_000);
    assert.deepEqual(ran.slice(-3), [9_997, 9_998, 9_999]);
  });
});
