/**
 * A part of the extension built as its own bundle (see hostBundles in esbuild.mjs) and loaded the
 * first time something needs it: `load` runs once, its result is kept, and the time it took goes to
 * the log, so a slow first use can be told apart from a slow feature.
 */
export function onFirstUse<T>(name: string, log: { debug(message: string): void }, load: () => T): () => T {
  let loaded: { value: T } | undefined;
  let loading = false;
  return () => {
    if (loaded) return loaded.value;
    // A feature that asks for itself while it starts would otherwise recurse without end.
    if (loading) throw new Error(`${name} was asked for while it was loading`);
    loading = true;
    try {
      const started = performance.now();
      loaded = { value: load() };
      log.debug(`${name} loaded in ${(performance.now() - started).toFixed(1)} ms`);
      return loaded.value;
    } finally {
      loading = false;
    }
  };
}
