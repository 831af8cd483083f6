/**
 * Opens a results file without stalling the thread that asks: its size is checked before it is
 * read, and a file past a few hundred kilobytes is parsed, checked and held on a worker thread
 * (resultsFileWorker). The caller gets the report's first screen at once (the run without its
 * answers, their count, the leaderboard) and asks for the rest as the report needs it: a page of
 * previews, one answer whole, the digests that tell which answers were produced here, or every
 * answer (taken in a bounded batch per turn of the event loop, for a rerun). A 100 MB file stalls
 * the caller's loop for milliseconds, not seconds. Small files are held on the caller's thread.
 */
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { AnswerRecord, EvalRunFile } from './evalModel';
import { maxRunFileChars, parseRunFile } from './resultsFile';
import type { RunFileHead, WorkerReply, WorkerRequest } from './resultsFileWorkerProtocol';
import { RunFileAnswers } from './runFileAnswers';

/** The most bytes a results file may have: past it, the file is refused before it is read. */
export const maxRunFileBytes = maxRunFileChars;
/** Files up to this many bytes are parsed on the caller's thread: that takes a few milliseconds. */
export const inlineParseBytes = 256 * 1024;
/** Digests are 32 hex characters each (answerProvenance). */
const digestChars = 32;

/** An opened results file: its first screen, and the rest on demand. */
export interface RunFileReader {
  readonly head: RunFileHead;
  page(offset: number, limit: number, previewChars: number): Promise<AnswerRecord[]>;
  answer(key: string): Promise<AnswerRecord | null>;
  /** Each answer's digest, in the file's order. */
  digests(): Promise<string[]>;
  /** The whole run, every answer in. */
  whole(): Promise<EvalRunFile>;
  dispose(): void;
}

export type OpenedRunFile = { ok: true; reader: RunFileReader } | { ok: false; error: string };

/** Why a file of `bytes` is not read, or undefined when its size is fine. */
export function runFileSizeProblem(bytes: number): string | undefined {
  if (bytes <= maxRunFileBytes) return undefined;
  const mb = (value: number) => `${Math.round(value / 1024 / 1024)} MB`;
  return `The results file cannot be read: it is ${mb(bytes)}, more than the ${mb(maxRunFileBytes)} RL Studio reads. Split the evaluation into smaller runs (fewer models or samples per results file).`;
}

/** The worker's script: beside this module, in the bundle (dist/) as in the transpiled tree (out/). */
export const defaultWorkerPath = join(__dirname, 'resultsFileWorker.js');

/** Opens a results file from its bytes: held on this thread when small, otherwise on a worker thread. */
export async function openRunFile(bytes: Uint8Array, options: { workerPath?: string; inlineBelowBytes?: number } = {}): Promise<OpenedRunFile> {
  const sizeProblem = runFileSizeProblem(bytes.byteLength);
  if (sizeProblem) return { ok: false, error: sizeProblem };
  if (bytes.byteLength <= (options.inlineBelowBytes ?? inlineParseBytes)) {
    const parsed = parseRunFile(new TextDecoder().decode(bytes));
    return parsed.ok ? { ok: true, reader: inlineReader(parsed.run, parsed.notes) } : parsed;
  }
  return WorkerReader.open(bytes, options.workerPath ?? defaultWorkerPath);
}

function splitDigests(joined: string): string[] {
  const digests: string[] = [];
  for (let at = 0; at + digestChars <= joined.length; at += digestChars) digests.push(joined.slice(at, at + digestChars));
  return digests;
}

function inlineReader(run: EvalRunFile, notes: string[]): RunFileReader {
  const held = new RunFileAnswers(run, notes);
  return {
    head: held.head(),
    page: (offset, limit, previewChars) => Promise.resolve(held.page(offset, limit, previewChars)),
    answer: (key) => Promise.resolve(held.answer(key)),
    digests: () => Promise.resolve(splitDigests(held.joinedDigests())),
    whole: () => Promise.resolve(run),
    dispose: () => undefined,
  };
}

/** A request as the reader builds it, before it is numbered. */
type Unnumbered<T> = T extends unknown ? Omit<T, 'id'> : never;

type Waiting = { resolve: (reply: WorkerReply) => void; reject: (error: Error) => void };

class WorkerReader implements RunFileReader {
  private nextId = 1;
  private readonly waiting = new Map<number, Waiting>();
  private ended: Error | undefined;
  private wholeRun: Promise<EvalRunFile> | undefined;
  head!: RunFileHead;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (reply: WorkerReply) => {
      const waiting = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      waiting?.resolve(reply);
    });
    worker.on('error', (error) => this.end(new Error(`the results file could not be read: ${error.message}`)));
    worker.on('exit', (code) => this.end(new Error(`the results file's reader stopped (exit code ${code})`)));
  }

  static async open(bytes: Uint8Array, workerPath: string): Promise<OpenedRunFile> {
    const reader = new WorkerReader(new Worker(workerPath));
    // The bytes move to the worker without a copy when they own their buffer; otherwise a copy does.
    const owns = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;
    let sent = owns ? bytes : bytes.slice();
    let reply: WorkerReply;
    try {
      reply = await reader.ask({ kind: 'parse', bytes: sent }, [sent.buffer as ArrayBuffer]).catch((error: unknown) => {
        if (!(error instanceof DOMException)) throw error;
        sent = bytes.slice();
        return reader.ask({ kind: 'parse', bytes: sent }, [sent.buffer as ArrayBuffer]);
      });
    } catch (error) {
      reader.dispose();
      throw error;
    }
    if (reply.kind !== 'head') {
      reader.dispose();
      return { ok: false, error: reply.kind === 'failed' ? reply.error : "the results file's reader answered out of turn" };
    }
    reader.head = reply.head;
    return { ok: true, reader };
  }

  async page(offset: number, limit: number, previewChars: number): Promise<AnswerRecord[]> {
    const reply = await this.ask({ kind: 'page', offset, limit, previewChars });
    return reply.kind === 'answers' ? reply.answers : [];
  }

  async answer(key: string): Promise<AnswerRecord | null> {
    const reply = await this.ask({ kind: 'answer', key });
    return reply.kind === 'answer' ? reply.answer : null;
  }

  async digests(): Promise<string[]> {
    const reply = await this.ask({ kind: 'digests' });
    return reply.kind === 'digests' ? splitDigests(reply.joined) : [];
  }

  whole(): Promise<EvalRunFile> {
    this.wholeRun ??= this.collect();
    return this.wholeRun;
  }

  dispose(): void {
    this.end(new Error('the results file was closed'));
  }

  /** Every answer, a bounded batch per turn of the event loop. */
  private async collect(): Promise<EvalRunFile> {
    const answers: AnswerRecord[] = [];
    while (answers.length < this.head.answerCount) {
      const reply = await this.ask({ kind: 'batch', from: answers.length });
      if (reply.kind !== 'answers' || reply.answers.length === 0) throw new Error("the results file's reader sent fewer answers than it counted");
      // Pushed one by one, never spread (a spread of many arguments can overflow the stack).
      for (const answer of reply.answers) answers.push(answer);
    }
    return { ...this.head.run, answers };
  }

  private ask(request: Unnumbered<WorkerRequest>, transfer: ArrayBuffer[] = []): Promise<WorkerReply> {
    if (this.ended) return Promise.reject(this.ended);
    const id = this.nextId++;
    return new Promise<WorkerReply>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      try {
        this.worker.postMessage({ ...request, id }, transfer);
      } catch (error) {
        this.waiting.delete(id);
        reject(error as Error);
      }
    });
  }

  private end(error: Error): void {
    if (this.ended) return;
    this.ended = error;
    this.worker.removeAllListeners();
    void this.worker.terminate();
    for (const waiting of this.waiting.values()) waiting.reject(error);
    this.waiting.clear();
  }
}
