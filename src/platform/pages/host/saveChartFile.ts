import * as vscode from 'vscode';
import type { ChartFile } from '../chartFile';
import type { Dialogs } from '../../host/dialogs';

/**
 * Saves a chart's export where the person chooses (nothing is written without the save dialog), in
 * the first workspace folder by default, and says where it went.
 */
export async function saveChartFile(dialogs: Dialogs, file: ChartFile): Promise<null> {
  const png = file.encoding === 'base64';
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const target = await dialogs.saveFile({
    title: png ? 'Save Chart as PNG' : 'Save Chart Data as CSV',
    ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, file.fileName) } : {}),
    filters: png ? { 'PNG image': ['png'] } : { 'Comma-separated values': ['csv'] },
    saveLabel: 'Save',
  });
  if (!target) return null;
  const bytes = png ? Buffer.from(file.content, 'base64') : Buffer.from(file.content, 'utf8');
  await vscode.workspace.fs.writeFile(target, bytes);
  dialogs.info(`Saved ${target.path.split('/').pop() ?? file.fileName}.`, { title: 'Reveal in Explorer', run: () => vscode.commands.executeCommand('revealInExplorer', target) });
  return null;
}
