import assert from 'node:assert/strict';
import { ListingWaits } from '../../../src/training/model/listingWaits';

describe('waits for a list to hold an item', () => {
  it('settles at once when the list already holds the item', async () => {
    const waits = new ListingWaits<string, { id: string }>();
    const row = { id: 'a' };
    assert.equal(await waits.when('a', row), row);
    assert.equal(waits.size, 0);
  });

  it('settles on the next read: with the item when it is listed, undefined when it is not', async () => {
    const waits = new ListingWaits<string, string>();
    const listed = waits.when('new', undefined);
    const missing = waits.when('gone', undefined);
    const again = waits.when('new', undefined);
    let settled = false;
    void listed.then(() => (settled = true));
    await Promise.resolve();
    assert.equal(settled, false, 'nothing settles before a read');
    waits.read((key) => (key === 'new' ? 'row of new' : undefined));
    assert.equal(await listed, 'row of new');
    assert.equal(await again, 'row of new');
    assert.equal(await missing, undefined);
    assert.equal(waits.size, 0, 'a read leaves nobody waiting');
  });

  it('settles every wait with undefined when the list goes away', async () => {
    const waits = new ListingWaits<string, string>();
    const pending = waits.when('a', undefined);
    waits.dispose();
    assert.equal(await pending, undefined);
  });

  it('waits for at most its bound of keys: past it, the oldest wait settles with undefined', async () => {
    const waits = new ListingWaits<number, string>(3);
    const all = Array.from({ length: 1_000 }, (_, key) => waits.when(key, undefined));
    assert.equal(waits.size, 3);
    waits.read((key) => `row ${key}`);
    const results = await Promise.all(all);
    assert.deepEqual(results.slice(-3), ['row 997', 'row 998', 'row 999']);
    assert.equal(results.filter((result) => result === undefined).length, 997);
  });
});
