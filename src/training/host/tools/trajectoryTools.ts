/**
 * The trajectory-file tool: checks a file of trajectory groups as "Create Training Job" checks it,
 * and the one read of such a file that the training tools confirm and send.
 */
import { readFile } from 'node:fs/promises';
import { describeTrajectoryCheck } from '../../model/trajectoryCheckText';
import { ToolRefusal, workspacePath } from '../../../platform/agent/toolInput';
import { checkTrajectoryFile, formatForFileName, type ParsedTrajectoryFile } from '../../../platform/kit/trajectoryFile';
import { describeSize, maxTrajectoryFileSize } from '../../../platform/kit/trajectoryLimits';
import { contentDigest, quoted } from '../../../platform/kit/confirmationText';
import type { AgentTool } from '../../../platform/agent/agentTool';
import { workspaceFile, type WorkspaceFile } from '../../../platform/agent/workspaceFiles';
import { parquetBytesSource } from '../../../platform/parquet/parquetFile';
import { parquetTrajectoryGroups } from '../../../platform/parquet/trajectoryGroups';

export function validateTrajectoriesTool(): AgentTool<{ path: string }> {
  return {
    name: 'rlstudio_validate_trajectories',
    needsPlatform: false,
    read: (input) => ({ path: workspacePath(input, 'path') }),
    progress: (input) => `Checking the trajectory groups of ${input.path}`,
    run: async (input) => {
      const file = await workspaceFile(input.path);
      return describeTrajectoryCheck(file.label, await checkedTrajectories(file));
    },
  };
}

/** A trajectory file read and checked as "Create Training Job" checks it; a file over the size sent in one request is not read. */
export async function checkedTrajectories(file: WorkspaceFile): Promise<ParsedTrajectoryFile> {
  return (await readTrajectories(file)).parsed;
}

/**
 * A trajectory file's bytes as read once, with their digest, and the groups checked from those very
 * bytes: what a confirmation counts is what is sent, and a later read is compared by digest.
 */
export async function readTrajectories(file: WorkspaceFile): Promise<{ parsed: ParsedTrajectoryFile; digest: string }> {
  if (file.size > maxTrajectoryFileSize)
    throw new ToolRefusal(`${quoted(file.label)} is ${describeSize(file.size)}; RL Studio sends at most ${describeSize(maxTrajectoryFileSize)} of trajectory groups in one job. Split the file.`);
  const bytes = await readFile(file.uri.fsPath);
  if (bytes.length > maxTrajectoryFileSize) throw new ToolRefusal(`${quoted(file.label)} grew past ${describeSize(maxTrajectoryFileSize)} while it was read. Split the file.`);
  const format = formatForFileName(file.uri.fsPath);
  // A Parquet log's groups are read from the same bytes the digest is of.
  const parsed = format === 'parquet' ? await parquetTrajectoryGroups(parquetBytesSource(bytes)) : await checkTrajectoryFile(bytes.toString('utf8'), format);
  return { parsed, digest: contentDigest(bytes) };
}
