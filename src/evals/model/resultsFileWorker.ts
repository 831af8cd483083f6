/**
 * Entry of dist/resultsFileWorker.js: holds a results file on a worker thread, so a large file never
 * stalls the extension host. It is given the file's bytes, decodes, parses and checks them
 * (parseRunFile), answers with the report's first screen, and then serves what the report asks
 * for: pages of previews, one answer whole, the answers' digests, the answers in bounded batches.
 */
import { parentPort } from 'node:worker_threads';
import { parseRunFile } from './resultsFile';
import type { WorkerReply, WorkerRequest } from './resultsFileWorkerProtocol';
import { RunFileAnswers } from './runFileAnswers';

let held: RunFileAnswers | undefined;

function reply(message: WorkerReply): void {
  parentPort!.postMessage(message);
}

parentPort?.on('message', (request: WorkerRequest) => {
  const { id } = request;
  if (request.kind === 'parse') {
    const parsed = parseRunFile(new TextDecoder().decode(request.bytes));
    if (!parsed.ok) return reply({ id, kind: 'failed', error: parsed.error });
    held = new RunFileAnswers(parsed.run, parsed.notes);
    return reply({ id, kind: 'head', head: held.head() });
  }
  if (!held) return reply({ id, kind: 'failed', error: 'the results file is not read yet' });
  if (request.kind === 'page') reply({ id, kind: 'answers', answers: held.page(request.offset, request.limit, request.previewChars) });
  else if (request.kind === 'answer') reply({ id, kind: 'answer', answer: held.answer(request.key) });
  else if (request.kind === 'digests') reply({ id, kind: 'digests', joined: held.joinedDigests() });
  else if (request.kind === 'batch') reply({ id, kind: 'answers', answers: held.batch(request.from) });
});
