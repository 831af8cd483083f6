import { strict as assert } from 'node:assert';
import { measure } from './measure';

describe('fault suite: measure', () => {
  it('reports an event-loop stall that a busy loop causes', async () => {
    const { measurement } = await measure(async () => {
      await new Promise((resolve) => setTimeout(resolve, 30));
      const until = Date.now() + 120;
      while (Date.now() < until) {
        /* a deliberate stall */
      }
      await new Promise((resolve) => setTimeout(resolve, 30));
    });
    assert.ok(measurement.maxEventLoopDelayMs >= 80, `saw ${measurement.maxEventLoopDelayMs} ms`);
  });
});
