import assert from 'node:assert/strict';
import { PassThrough, Readable } from 'node:stream';
import { readCapped } from '../../../../src/platform/client/bodyLimits';

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString();
const listeners = (stream: Readable) => ['data', 'end', 'error', 'close'].map((event) => stream.listenerCount(event));

describe('reading a body with a cap', () => {
  it('reads every part of a body that arrives over time, and leaves no listener behind', async () => {
    const body = new PassThrough();
    const read = readCapped(body, 100, { refuseAnnouncedOverflow: false });
    body.write('ab');
    setImmediate(() => body.end('cd'));
    const result = await read;
    assert.deepEqual([text(result.bytes), result.complete], ['abcd', true]);
    assert.deepEqual(listeners(body), [0, 0, 0, 0]);
  });

  it('reads what was buffered before the read began', async () => {
    const body = new PassThrough();
    body.end('buffered');
    const result = await readCapped(body, 100, { refuseAnnouncedOverflow: false });
    assert.deepEqual([text(result.bytes), result.complete], ['buffered', true]);
  });

  it("fails with the body's error when it fails in the middle", async () => {
    const body = new PassThrough();
    const read = readCapped(body, 100, { refuseAnnouncedOverflow: false });
    body.write('ab');
    const failure = Object.assign(new Error('socket hang up'), { code: 'UND_ERR_SOCKET' });
    setImmediate(() => body.destroy(failure));
    await assert.rejects(read, (error: unknown) => error === failure);
    assert.deepEqual(listeners(body), [0, 0, 0, 0]);
  });

  it('fails as a premature close when the body is destroyed before its end without an error', async () => {
    const body = new PassThrough();
    const read = readCapped(body, 100, { refuseAnnouncedOverflow: false });
    body.write('ab');
    setImmediate(() => body.destroy());
    await assert.rejects(read, (error: unknown) => (error as { code?: string }).code === 'ERR_STREAM_PREMATURE_CLOSE');
  });

  it('fails, rather than waits forever, for a body that failed before the read began', async () => {
    const body = new PassThrough();
    const failure = new Error('reset');
    body.on('error', () => undefined);
    body.destroy(failure);
    await assert.rejects(readCapped(body, 100, { refuseAnnouncedOverflow: false }), (error: unknown) => error === failure);
  });

  it('fails, rather than waits forever, for a body destroyed before the read began', async () => {
    const body = new PassThrough();
    body.destroy();
    await once(body, 'close');
    await assert.rejects(readCapped(body, 100, { refuseAnnouncedOverflow: false }));
  });

  it('gives an empty complete answer for a body that had already ended', async () => {
    const body = Readable.from([Buffer.from('x')]);
    for await (const _part of body) {
      // Read to its end.
    }
    const result = await readCapped(body, 100, { refuseAnnouncedOverflow: false });
    assert.deepEqual([result.bytes.byteLength, result.complete], [0, true]);
  });

  it('stops at the cap in the middle of a part, destroys the body and ignores its later error', async () => {
    const body = new PassThrough();
    const read = readCapped(body, 3, { refuseAnnouncedOverflow: false });
    body.write('abcdef');
    const result = await read;
    assert.deepEqual([text(result.bytes), result.complete, body.destroyed], ['abc', false, true]);
    assert.equal(body.listenerCount('data'), 0);
  });
});

function once(stream: Readable, event: string): Promise<void> {
  return new Promise((resolve) => stream.once(event, () => resolve()));
}
