import * as path from 'node:path';
import * as vscode from 'vscode';
import type { EvalRunFile } from '../model/evalModel';
import { openRunFile, runFileSizeProblem } from '../model/resultsFileLoader';
import { errorMessage } from '../../platform/client/errorMessage';

export type ReadResultsFile = { ok: true; run: EvalRunFile; bytes: Uint8Array } | { ok: false; problem: string; missing: boolean };

/**
 * A results file read whole, as the report reads it: its size checked before a byte is read (the
 * file may be anyone's, of any size), then parsed on the worker thread when it is large. The bytes
 * come along for a digest of what was read. `missing` when there is no such file.
 */
export async function readResultsFile(uri: vscode.Uri): Promise<ReadResultsFile> {
  const name = path.posix.basename(uri.path);
  let bytes: Uint8Array;
  try {
    const tooLarge = runFileSizeProblem((await vscode.workspace.fs.stat(uri)).size);
    if (tooLarge) return { ok: false, problem: tooLarge, missing: false };
    bytes = await vscode.workspace.fs.readFile(uri);
  } catch (error) {
    const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
    const missing = code === 'FileNotFound' || code === 'ENOENT';
    return { ok: false, problem: `${name} could not be read (${errorMessage(error)}).`, missing };
  }
  try {
    const opened = await openRunFile(bytes);
    if (!opened.ok) return { ok: false, problem: opened.error, missing: false };
    try {
      return { ok: true, run: await opened.reader.whole(), bytes };
    } finally {
      opened.reader.dispose();
    }
  } catch (error) {
    return { ok: false, problem: `${name} could not be read (${errorMessage(error)}).`, missing: false };
  }
}
