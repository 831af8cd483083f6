/**
 * The chunks of `source`, each next one asked for before this one is handed on: the file is read
 * while the caller works on a chunk, rather than after (a source that has its chunk ready then does
 * not wait for the next). Stopped early (a `break`, a throw, a cancel), the chunk asked for ahead is
 * not wanted any more, nor its failure, and the source is closed.
 */
export async function* readAhead<T>(source: AsyncIterable<T>): AsyncGenerator<T> {
  const iterator = source[Symbol.asyncIterator]();
  let next = iterator.next();
  try {
    for (;;) {
      const result = await next;
      if (result.done) return;
      next = iterator.next();
      yield result.value;
    }
  } finally {
    next.catch(() => undefined);
    await iterator.return?.();
  }
}
