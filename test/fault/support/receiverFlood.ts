/**
 * A hostile uploader in a process of its own (as it would be: another program on the machine), so
 * the receiver's event loop and heap are measured without the flood's own work in them.
 *
 * node receiverFlood.js <url> <posts> <width> <bytes>: posts `posts` bodies of `bytes` bytes,
 * `width` at once, alternating Content-Length and chunked, and prints a FloodReport as JSON.
 * A connection closed before any answer (over the receiver's connection cap) is tried again, as a
 * real sender would.
 */
import { inParallel, upload } from './receiverClients';

export interface FloodReport {
  statuses: (number | null)[];
  /** Connections closed before an answer and tried again. */
  retried: number;
  elapsedMs: number;
}

async function flood(url: string, posts: number, width: number, bytes: number): Promise<FloodReport> {
  let retried = 0;
  const started = Date.now();
  const modes = Array.from({ length: posts }, (_, index): 'content-length' | 'chunked' => (index % 2 === 0 ? 'content-length' : 'chunked'));
  const outcomes = await inParallel(modes, width, async (mode) => {
    for (let attempt = 1; ; attempt++) {
      const outcome = await upload(url, bytes, mode);
      if (outcome.status !== undefined || attempt === 30) return outcome;
      retried++;
      await new Promise((resolve) => setTimeout(resolve, Math.min(20 * attempt, 200)));
    }
  });
  return { statuses: outcomes.map((outcome) => outcome.status ?? null), retried, elapsedMs: Date.now() - started };
}

if (require.main === module) {
  const [url, posts, width, bytes] = process.argv.slice(2);
  void flood(url, Number(posts), Number(width), Number(bytes)).then((report) => process.stdout.write(JSON.stringify(report)));
}
