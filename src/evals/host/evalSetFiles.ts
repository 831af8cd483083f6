import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ParsedEvalSet } from '../model/evalSet';
import { parseEvalSet } from '../model/evalSet';
import { samplesFromParquetLog, samplesFromTrajectoryGroups } from '../model/trajectorySamples';
import { parquetBytesSource } from '../../platform/parquet/parquetFile';
import { formatForFileName } from '../../platform/kit/trajectoryFile';

/** The largest eval set read (samples are held whole): 10,000 samples of a long prompt each fit well within it. */
export const maxEvalSetBytes = 256 * 1024 * 1024;

/** An eval set file: `*.evalset.jsonl`, or a trajectory-group file whose prompts and best answers make one. */
export function isTrajectoryFile(uri: vscode.Uri): boolean {
  return !/\.evalset\.jsonl$/i.test(uri.path);
}

/** Reads an eval set or a trajectory-group file into samples and problems. */
export async function readEvalSet(uri: vscode.Uri): Promise<ParsedEvalSet> {
  const { size } = await vscode.workspace.fs.stat(uri);
  if (size > maxEvalSetBytes) throw new Error(`${path.posix.basename(uri.path)} is ${Math.round(size / 2 ** 20)} MB, more than the ${maxEvalSetBytes / 2 ** 20} MB an eval set may be`);
  const bytes = await vscode.workspace.fs.readFile(uri);
  const format = formatForFileName(uri.path);
  if (format === 'parquet') return samplesFromParquetLog(parquetBytesSource(bytes));
  const text = new TextDecoder().decode(bytes);
  return isTrajectoryFile(uri) ? samplesFromTrajectoryGroups(text, format) : parseEvalSet(text);
}

/** The workspace's eval sets and trajectory files, for the picker (at most 300). */
export async function evalSetCandidates(): Promise<vscode.Uri[]> {
  const sets = await vscode.workspace.findFiles('**/*.evalset.jsonl', '**/node_modules/**', 100);
  const groups = await vscode.workspace.findFiles('**/*.trajectories.{jsonl,json}', '**/node_modules/**', 100);
  // The official client's logs: <project>/models/<model>/trajectories/<split>/<step>.parquet.
  const logs = await vscode.workspace.findFiles('**/trajectories/*/*.parquet', '**/node_modules/**', 100);
  return [...sets, ...groups, ...logs];
}
