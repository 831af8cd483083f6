import { realpath, stat } from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ToolInputError, ToolRefusal } from './toolInput';
import { containingFolder, hostPathRules } from '../kit/workspacePaths';

export interface WorkspaceFile {
  uri: vscode.Uri;
  /** As the person sees it: relative to its workspace folder. */
  label: string;
  size: number;
}

/**
 * The workspace file a tool was given, after `workspacePath` checked its shape: a relative path is
 * looked up in each workspace folder in turn, an absolute one must be in one. The real path (links
 * followed) must be inside the real path of a workspace folder too: a link cannot lead a tool to
 * ~/.ssh. Only files on disk are read (not untitled or remote documents).
 */
export async function workspaceFile(given: string): Promise<WorkspaceFile> {
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file').map((folder) => folder.uri.fsPath);
  if (folders.length === 0) throw new ToolRefusal('No workspace folder is open, so no file can be read. Ask the user to open the folder that holds the file.');
  const candidates = path.isAbsolute(given) ? [path.normalize(given)] : folders.map((folder) => path.join(folder, given));
  // The folder itself passes here, to be refused below as "not a file".
  const inside = (file: string, within: readonly string[]) => containingFolder(file, within, hostPathRules(), { folderItself: true });
  for (const candidate of candidates) {
    if (!inside(candidate, folders)) continue;
    let real: string;
    try {
      real = await realpath(candidate);
    } catch {
      continue;
    }
    const realFolders = await Promise.all(folders.map((folder) => realpath(folder).catch(() => folder)));
    if (!inside(real, realFolders)) throw new ToolInputError(`"${given}" leads outside the workspace folders.`);
    const info = await stat(real);
    if (!info.isFile()) throw new ToolInputError(`"${given}" is not a file.`);
    const uri = vscode.Uri.file(candidate);
    return { uri, label: vscode.workspace.asRelativePath(uri, folders.length > 1), size: info.size };
  }
  if (path.isAbsolute(given) && !inside(path.normalize(given), folders)) throw new ToolInputError(`"${given}" is outside the workspace folders.`);
  throw new ToolRefusal(`No file "${given}" in the workspace folders. Give a path relative to the workspace folder.`);
}
