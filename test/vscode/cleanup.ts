/**
 * Work to undo when the runner ends, however it ends: normally, by an uncaught error, or by Ctrl-C.
 * Only synchronous work can run on 'exit', so every cleanup must be synchronous (killing a process
 * group and removing a folder both are).
 */
type Cleanup = () => void;

const cleanups = new Set<Cleanup>();
let hooked = false;

function runAll(): void {
  for (const cleanup of [...cleanups].reverse()) {
    cleanups.delete(cleanup);
    try {
      cleanup();
    } catch {
      // Keep going: one failed cleanup must not leave the others undone.
    }
  }
}

function hookProcess(): void {
  if (hooked) return;
  hooked = true;
  process.on('exit', runAll);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      runAll();
      process.exit(signal === 'SIGINT' ? 130 : 143);
    });
  }
}

/** Registers a cleanup; the returned function runs it now (once) and unregisters it. */
export function onCleanup(cleanup: Cleanup): () => void {
  hookProcess();
  cleanups.add(cleanup);
  return () => {
    if (cleanups.delete(cleanup)) cleanup();
  };
}
