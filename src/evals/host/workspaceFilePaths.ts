import { promises as fs } from 'node:fs';
import * as vscode from 'vscode';
import { quoted } from '../../platform/kit/confirmationText';
import { outside, readWrittenPath } from '../model/workspacePaths';
import { containingFolder } from '../../platform/kit/workspacePaths';

/**
 * The file a workspace file's path names, if it stays home: read relative to `folder`, and (for a
 * file on disk) with every link followed, it must lie inside a workspace folder. Throws an Error
 * whose message says which path was refused and that nothing was read. The URI returned is the
 * resolved one, so what is read is what was checked.
 */
export async function resolveWorkspacePath(folder: vscode.Uri, written: string, what: string): Promise<vscode.Uri> {
  const read = readWrittenPath(written, what);
  if (!read.ok) throw new Error(capitalized(read.problem));
  const joined = vscode.Uri.joinPath(folder, ...read.relative.split('/'));
  if (joined.scheme !== 'file') return joined;
  const folders = (vscode.workspace.workspaceFolders ?? []).map((candidate) => candidate.uri).filter((uri) => uri.scheme === 'file');
  const realFolders = await Promise.all(folders.map((uri) => fs.realpath(uri.fsPath).catch(() => uri.fsPath)));
  let real: string;
  try {
    real = await fs.realpath(joined.fsPath);
  } catch {
    throw new Error(capitalized(`the ${what} ${quoted(written, 200)} does not exist in the workspace folder; nothing was read`));
  }
  if (!containingFolder(real, realFolders)) throw new Error(capitalized(outside(what, quoted(written, 200))));
  return vscode.Uri.file(real);
}

const capitalized = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1) + '.';
