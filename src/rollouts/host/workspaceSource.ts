import * as vscode from 'vscode';
import { fileSource, memorySource, type ByteSource } from '../model/fileSource';

/**
 * A file of another scheme than `file:` (a remote or virtual file system) can only be read whole
 * through VS Code; above this size it is not read, and the inspector says so.
 */
export const maxWholeFileBytes = 256 * 1024 * 1024;

/** Where the inspector reads a file: from disk as a stream, or through VS Code within a cap. */
export function sourceFor(uri: vscode.Uri): ByteSource {
  if (uri.scheme === 'file') return fileSource(uri.fsPath);
  let bytes: Uint8Array = new Uint8Array(0);
  const whole = memorySource(() => bytes);
  return {
    // Each read of the file starts by asking its size: the bytes are fetched again then.
    size: async () => {
      const { size } = await vscode.workspace.fs.stat(uri);
      if (size > maxWholeFileBytes)
        throw new Error(`it is ${(size / 1e6).toFixed(0)} MB, and a file that is not on this machine's disk is read only up to ${maxWholeFileBytes / 2 ** 20} MB: copy it to a local folder`);
      bytes = await vscode.workspace.fs.readFile(uri);
      return bytes.length;
    },
    chunks: (start) => whole.chunks(start),
    read: (offset, length) => whole.read(offset, length),
  };
}
