import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { describeRolloutsForAgent } from '../../../agent/rolloutReport';
import { describeTrajectoryCheck } from '../../../agent/trajectoryCheckText';
import { ToolRefusal, workspacePath } from '../../../agent/toolInput';
import { checkTrajectoryFile, formatForFileName, type ParsedTrajectoryFile } from '../../../core/trajectoryFile';
import { describeSize, maxTrajectoryFileSize } from '../../../core/trajectoryLimits';
import { contentDigest, quoted } from '../../../core/confirmationText';
import { inspectRollouts, rolloutFormatOf } from '../../../rollouts/rolloutReader';
import type { AgentTool } from './agentTool';
import { workspaceFile, type WorkspaceFile } from './workspaceFiles';

/** The inspector reads files this large as a stream; the tool reads no more. */
const maxRolloutFileBytes = 2 * 1024 * 1024 * 1024;

export function summariseRolloutsTool(): AgentTool<{ path: string }> {
  return {
    name: 'rlstudio_summarise_rollouts',
    needsPlatform: false,
    read: (input) => ({ path: workspacePath(input, 'path') }),
    progress: (input) => `Reading the rollouts of ${input.path}`,
    run: async (input, signal) => {
      const file = await workspaceFile(input.path);
      if (file.size > maxRolloutFileBytes) throw new ToolRefusal(`${quoted(file.label)} is ${describeSize(file.size)}, more than the ${describeSize(maxRolloutFileBytes)} the summary reads.`);
      const collection = await inspectRollouts(chunksUntil(createReadStream(file.uri.fsPath, { highWaterMark: 1024 * 1024 }), signal), rolloutFormatOf(file.uri.fsPath));
      return describeRolloutsForAgent(file.label, collection.snapshot());
    },
  };
}

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
  return { parsed: await checkTrajectoryFile(bytes.toString('utf8'), formatForFileName(file.uri.fsPath)), digest: contentDigest(bytes) };
}

/** The stream's chunks until the signal aborts (the reading then stops with an AbortError). */
async function* chunksUntil(stream: AsyncIterable<Uint8Array> & { destroy(): void }, signal: AbortSignal): AsyncGenerator<Uint8Array> {
  try {
    for await (const chunk of stream) {
      signal.throwIfAborted();
      yield chunk;
    }
  } finally {
    stream.destroy();
  }
}
