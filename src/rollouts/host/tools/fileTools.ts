import { createReadStream } from 'node:fs';
import { describeRolloutsForAgent } from '../../model/rolloutReport';
import { ToolRefusal, workspacePath } from '../../../platform/agent/toolInput';
import { describeSize } from '../../../platform/kit/trajectoryLimits';
import { quoted } from '../../../platform/kit/confirmationText';
import { inspectRollouts } from '../../model/rolloutReader';
import { formatForFileName } from '../../../platform/kit/trajectoryFile';
import type { AgentTool } from '../../../platform/agent/agentTool';
import { workspaceFile } from '../../../platform/agent/workspaceFiles';
import { ParquetGroupFile } from '../../model/parquetGroupFile';
import { RolloutCollection } from '../../model/rolloutCollection';
import { startOfFile } from '../../model/rolloutRecords';
import { parquetFileSource } from '../../../platform/parquet/parquetFile';
import { TrajectoryLogError } from '../../../platform/parquet/trajectoryLog';

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
      const format = formatForFileName(file.uri.fsPath);
      if (format === 'parquet') return describeRolloutsForAgent(file.label, (await parquetRollouts(file.uri.fsPath, file.label, signal)).snapshot(), { places: 'row' });
      const collection = await inspectRollouts(chunksUntil(createReadStream(file.uri.fsPath, { highWaterMark: 1024 * 1024 }), signal), format);
      return describeRolloutsForAgent(file.label, collection.snapshot());
    },
  };
}

/** A Parquet trajectory log read as the inspector reads it, into the same figures. */
async function parquetRollouts(path: string, label: string, signal: AbortSignal): Promise<RolloutCollection> {
  const collection = new RolloutCollection();
  try {
    for await (const record of new ParquetGroupFile(() => parquetFileSource(path)).records(startOfFile, {})) {
      signal.throwIfAborted();
      collection.add(record);
    }
  } catch (error) {
    if (error instanceof TrajectoryLogError) throw new ToolRefusal(`${quoted(label)} is not a trajectory log RL Studio can read: ${error.message}.`);
    throw error;
  }
  return collection;
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
