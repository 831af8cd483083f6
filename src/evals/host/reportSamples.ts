import * as path from 'node:path';
import * as vscode from 'vscode';
import { errorMessage } from '../../platform/client/errorMessage';
import type { EvalRunFile } from '../model/evalModel';
import { previewChars, type SampleView } from '../protocol';
import type { Services } from '../../platform/host/services';
import { readEvalSet } from './evalSetFiles';
import { resolveWorkspacePath } from './workspaceFilePaths';

/** The eval set's samples, its path read from the results file's workspace folder and kept inside the workspace; none when the set is gone or elsewhere. */
export async function reportSamples(services: Services, resultsFile: vscode.Uri, run: EvalRunFile): Promise<SampleView[]> {
  const folder = vscode.workspace.getWorkspaceFolder(resultsFile)?.uri;
  if (!folder) return [];
  let setUri: vscode.Uri;
  try {
    setUri = await resolveWorkspacePath(folder, run.set.path, 'eval set');
  } catch (error) {
    // A path that leaves the workspace is the file's doing, not a set that went missing: say so.
    if (/outside the workspace/.test(String(error))) services.dialogs.warn(services.log.redact(`${path.posix.basename(resultsFile.path)}: ${errorMessage(error)}`));
    services.log.warn(`the eval set of ${resultsFile.fsPath} was not read: ${services.describeFailure(error).message}`);
    return [];
  }
  try {
    const set = await readEvalSet(setUri);
    return set.samples.map((sample) => ({
      id: sample.id,
      line: sample.line,
      messages: sample.messages.map((message) => ({ role: message.role, content: message.content.slice(0, previewChars * 8) })),
      ...(sample.reference !== undefined ? { reference: sample.reference.slice(0, previewChars * 8) } : {}),
    }));
  } catch (error) {
    services.log.warn(`the eval set of ${resultsFile.fsPath} could not be read: ${services.describeFailure(error).message}`);
    return [];
  }
}
