import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TrajectoryGroup } from '../../platform/client/types';
import { contentDigest, stepRanges } from '../../platform/kit/confirmationText';
import { describeSize, maxTrajectoryFileSize } from '../../platform/kit/trajectoryLimits';
import { validateTrajectoryGroup } from '../../platform/kit/trajectoryShape';
import type { GroupScope } from '../protocol';
import type { Services } from '../../platform/host/services';
import type { RegisteredViews } from '../../training';
import type { CreatedJobResult, GroupsToSend } from '../../training';
import type { RolloutDocument } from './rolloutDocument';
import { maxWholeFileBytes } from './workspaceSource';
import { rolloutsOptionViewType } from '../protocol';
import { copyAndSay } from '../../platform/host/clipboard';

/** The longest trajectory copied as JSON: far beyond any real one, well within what a clipboard takes. */
const maxCopyChars = 16 * 1024 * 1024;

/**
 * What the inspector does with groups: sends them to the platform (a training job, a log with a
 * split), writes them to a new file, copies one trajectory, shows a line in the text editor.
 * Groups are read again from the file by their place, checked with the same shape checks as a file
 * sent from the explorer, and sent only within the size RL Studio sends in one request. What is
 * sent is what the confirmation counted: the groups' texts are kept as a digest, and nothing is
 * sent when the file no longer holds them after the person said yes.
 */
export class RolloutActions {
  constructor(
    private readonly services: Services,
    private readonly document: RolloutDocument,
    private readonly sidebar: () => RegisteredViews,
  ) {}

  private get dialogs() {
    return this.services.dialogs;
  }

  private get fileName(): string {
    return path.posix.basename(this.document.uri.path);
  }

  /** A Parquet log's groups are placed by rows, and it has no text to show them in. */
  private get placedByRows(): boolean {
    return this.document.file.format === 'parquet';
  }

  async revealLine(line: number): Promise<void> {
    const uri = this.document.uri;
    if (this.placedByRows) {
      this.dialogs.info(`${this.fileName} is a Parquet trajectory log: VS Code has no text view of it to show row ${line + 1} in.`);
      return;
    }
    const at = new vscode.Range(line, 0, line, 0);
    try {
      await vscode.window.showTextDocument(uri, { viewColumn: vscode.ViewColumn.Beside, selection: at, preview: true });
    } catch {
      // VS Code hands extensions no text of a file over 50 MB: the text editor can still show it.
      await vscode.commands.executeCommand('vscode.openWith', uri, 'default', vscode.ViewColumn.Beside);
      this.dialogs.info(`${this.fileName} is too large for RL Studio to place the cursor in the text editor: use Go to Line (Ctrl+G) for line ${line + 1}.`);
    }
  }

  async copyTrajectory(index: number, position: number): Promise<void> {
    const read = await this.document.file.groupValue(index);
    const trajectory = read && Array.isArray(read.value.trajectories) ? (read.value.trajectories as unknown[])[position] : undefined;
    if (trajectory === undefined) {
      this.dialogs.warn(`Group ${index + 1} is no longer where it was in ${this.fileName}: the file changed and is being read again. Nothing was copied.`);
      return;
    }
    const text = JSON.stringify(trajectory, null, 2);
    if (text.length > maxCopyChars) {
      this.dialogs.warn(`Trajectory ${position + 1} of group ${index + 1} is ${describeSize(text.length)} as JSON, more than RL Studio copies (${describeSize(maxCopyChars)}). Nothing was copied.`);
      return;
    }
    await copyAndSay(text, `Copied trajectory ${position + 1} of group ${index + 1} as JSON`, 4000);
  }

  async createJob(scope: GroupScope): Promise<CreatedJobResult | undefined> {
    const read = await this.groupsToSend(scope, 'train on');
    if (!read) return undefined;
    return this.sidebar().trajectories.train(read);
  }

  async logToModel(scope: GroupScope): Promise<void> {
    const read = await this.groupsToSend(scope, 'log');
    if (read) await this.sidebar().trajectories.log(read);
  }

  async exportGroups(scope: GroupScope): Promise<void> {
    const indices = await this.indicesOf(scope);
    if (indices.length === 0) {
      this.dialogs.info('No group to export: nothing is selected and the filter matches no group.');
      return;
    }
    const source = this.document.uri;
    const base = this.fileName.replace(/(\.trajectories)?\.(jsonl?|parquet)$/i, '');
    const target = await this.dialogs.saveFile({
      title: `Export ${indices.length} group${indices.length === 1 ? '' : 's'}`,
      defaultUri: vscode.Uri.joinPath(source, '..', `${base}.selection.trajectories.jsonl`),
      filters: { 'Trajectory groups, one per line': ['jsonl'], 'Trajectory groups, one JSON array': ['json'] },
      saveLabel: 'Export',
    });
    if (!target) return;
    if (target.toString() === source.toString()) {
      this.dialogs.warn(`The export would overwrite ${this.fileName} while it is read: choose another file. Nothing was written.`);
      return;
    }
    const asArray = /\.json$/i.test(target.path);
    const written = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Exporting ${indices.length} groups`, cancellable: true }, (progress, token) =>
      this.writeGroups(indices, target, asArray, token, (done) => progress.report({ increment: (100 * done) / indices.length })),
    );
    if (!written) return;
    this.dialogs.info(`Exported ${indices.length} group${indices.length === 1 ? '' : 's'} to ${path.posix.basename(target.path)}.`, {
      title: 'Open in Rollout Inspector',
      run: () => vscode.commands.executeCommand('vscode.openWith', target, rolloutsOptionViewType),
    });
  }

  /** Writes the groups' texts as they are in the file; a file on disk is written aside and renamed when complete. */
  private async writeGroups(indices: number[], target: vscode.Uri, asArray: boolean, token: vscode.CancellationToken, onProgress: (moreDone: number) => void): Promise<boolean> {
    const pieces = (async function* (file: RolloutDocument['file']): AsyncGenerator<string> {
      if (asArray) yield '[\n';
      let first = true;
      for await (const { text } of file.groupTexts(indices)) {
        if (token.isCancellationRequested) return;
        yield `${asArray && !first ? ',\n' : ''}${text}${asArray ? '' : '\n'}`;
        first = false;
      }
      if (asArray) yield '\n]\n';
    })(this.document.file);
    let done = 0;
    try {
      if (target.scheme === 'file') {
        const partial = `${target.fsPath}.${process.pid}.partial`;
        const stream = createWriteStream(partial);
        try {
          for await (const piece of pieces) {
            if (!stream.write(piece)) await new Promise<void>((resolve) => stream.once('drain', () => resolve()));
            if (++done % 100 === 0) onProgress(100);
          }
          await new Promise<void>((resolve, reject) => stream.end((error?: Error | null) => (error ? reject(error) : resolve())));
          if (token.isCancellationRequested) {
            await rm(partial, { force: true });
            return false;
          }
          await rename(partial, target.fsPath);
        } catch (error) {
          stream.destroy();
          await rm(partial, { force: true });
          throw error;
        }
      } else {
        const parts: string[] = [];
        let size = 0;
        for await (const piece of pieces) {
          size += piece.length;
          if (size > maxWholeFileBytes) throw new Error(`the export is over ${describeSize(maxWholeFileBytes)}, the most RL Studio writes to a file that is not on this machine's disk`);
          parts.push(piece);
        }
        if (token.isCancellationRequested) return false;
        await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(parts.join('')));
      }
    } catch (error) {
      this.services.showError(error, `exporting groups of ${this.fileName}`);
      return false;
    }
    return !token.isCancellationRequested;
  }

  private async indicesOf(scope: GroupScope): Promise<number[]> {
    const count = this.document.file.groups.length;
    if (scope.kind === 'selected') return scope.indices.filter((index) => index < count);
    return Array.from(await this.document.file.matching(scope.query)).sort((a, b) => a - b);
  }

  /** The groups of a scope, read again and checked, or undefined (and a message) when they cannot be sent. */
  private async groupsToSend(scope: GroupScope, doing: string): Promise<GroupsToSend | undefined> {
    const indices = await this.indicesOf(scope);
    if (indices.length === 0) {
      this.dialogs.info(`No group to ${doing}: nothing is selected and the filter matches no group.`);
      return undefined;
    }
    const groups = this.document.file.groups;
    const tooMuch = (size: string): undefined => {
      this.dialogs.warn(
        `The ${indices.length} groups come to ${size}; RL Studio sends at most ${describeSize(maxTrajectoryFileSize)} in one request. Filter or select fewer groups. Nothing was sent.`,
      );
      return undefined;
    };
    // A text file's groups are sized by their bytes before they are read; a Parquet log's by the JSON they make, as they are read.
    const bytes = this.placedByRows ? 0 : indices.reduce((sum, index) => sum + groups[index]!.bytes, 0);
    if (bytes > maxTrajectoryFileSize) return tooMuch(describeSize(bytes));
    const values: TrajectoryGroup[] = [];
    const digests: string[] = [];
    let chars = 0;
    for await (const { index, text } of this.document.file.groupTexts(indices)) {
      chars += text.length + 1;
      if (chars > maxTrajectoryFileSize) return tooMuch(`more than ${describeSize(maxTrajectoryFileSize)} of JSON`);
      digests.push(contentDigest(text));
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        this.dialogs.warn(`Group ${index + 1} is no longer where it was in ${this.fileName}: the file changed and is being read again. Nothing was sent.`);
        void this.document.file.changed();
        return undefined;
      }
      const error = validateTrajectoryGroup(value).find((issue) => issue.severity === 'error');
      if (error) {
        const line = groups[index]!.line;
        const message = `Group ${index + 1} (${this.placedByRows ? 'row' : 'line'} ${line + 1}) is not a trajectory group the platform takes: ${error.message}. Nothing was sent.`;
        if (this.placedByRows) this.dialogs.warn(message);
        else this.dialogs.warn(message, { title: 'Reveal Line', run: () => this.revealLine(line) });
        return undefined;
      }
      values.push(value as TrajectoryGroup);
    }
    const readDigest = contentDigest(digests.join('\n'));
    const picked = indices.map((index) => index + 1);
    const where = this.document.uri.fsPath || this.document.uri.toString();
    return {
      groups: values,
      source: { name: this.fileName, path: where, picked },
      detail: `${where}, groups ${stepRanges(picked)}`,
      changed: async () => (await this.digestOf(indices)) !== readDigest,
    };
  }

  /** The digest of the groups' texts as the file holds them now; undefined when it no longer holds them all. */
  private async digestOf(indices: number[]): Promise<string | undefined> {
    const digests: string[] = [];
    try {
      for await (const { text } of this.document.file.groupTexts(indices)) digests.push(contentDigest(text));
    } catch {
      return undefined;
    }
    return contentDigest(digests.join('\n'));
  }
}
