/** Where the time a part took to load is written (the extension's log). */
export interface LoadLog {
  debug(message: string): void;
}

/**
 * The one way a part of the extension loads late. Each part (the network stack, the sidebar, the
 * chat, the language models, the payload language, the webhooks, the payload core, the development
 * seed) is a bundle of its own (see hostBundles in esbuild.mjs) that `load` requires the first time
 * something needs it: `load` runs once, its result is kept, and the time it took goes to the log,
 * so a slow first use can be told apart from a slow feature. A part with commands also has them in
 * featureCommands.ts. `log` is undefined only for a part loaded where no log is at hand.
 */
export function onFirstUse<T>(name: string, log: LoadLog | undefined, load: () => T): () => T {
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
      log?.debug(`${name} loaded in ${(performance.now() - started).toFixed(1)} ms`);
      return loaded.value;
    } finally {
      loading = false;
    }
  };
}
