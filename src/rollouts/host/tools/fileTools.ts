import { createReadStream } from 'node:fs';
import { describeRolloutsForAgent } from '../../model/rolloutReport';
import { ToolRefusal, workspacePath } from '../../../platform/agent/toolInput';
import { describeSize } from '../../../platform/kit/trajectoryLimits';
import { quoted } from '../../../platform/kit/confirmationText';
import { inspectRollouts } from '../../model/rolloutReader';
import { formatForFileName } from '../../../platform/kit/trajectoryFile';
import type { AgentTool } from '../../../platform/agent/agentTool';
import { workspaceFile } from '../../../platform/agent/workspaceFiles';

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
      const collection = await inspectRollouts(chunksUntil(createReadStream(file.uri.fsPath, { highWaterMark: 1024 * 1024 }), signal), formatForFileName(file.uri.fsPath));
      return describeRolloutsForAgent(file.label, collection.snapshot());
    },
  };
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
