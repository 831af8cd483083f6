import * as vscode from 'vscode';
import { parseRunState, runStateFileName, type RunState } from '../model/runState';

/** A run file read at most: ten thousand steps fit well within it. */
const maxRunFileBytes = 16 * 1024 * 1024;

/**
 * A run folder's `run.json` as far as it can be read: the run, or why not (`missing` when there is
 * none yet). Its size is checked before a byte is read, whoever wrote it.
 */
export async function readRunFile(folder: vscode.Uri): Promise<{ state: RunState } | { problem: string; missing?: true }> {
  const uri = vscode.Uri.joinPath(folder, runStateFileName);
  let size: number;
  try {
    size = (await vscode.workspace.fs.stat(uri)).size;
  } catch {
    return { problem: `${runStateFileName} is not there (yet)`, missing: true };
  }
  if (size > maxRunFileBytes) return { problem: `${runStateFileName} is larger than ${maxRunFileBytes / 2 ** 20} MB: not a run file` };
  try {
    const parsed = parseRunState(new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)));
    return parsed.ok ? { state: parsed.state } : { problem: parsed.problem };
  } catch {
    return { problem: `${runStateFileName} could not be read` };
  }
}
