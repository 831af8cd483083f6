/**
 * Writes the benchmark's Parquet trajectory log as the official client's `model.log()` would: 12,500
 * groups of 8 trajectories (100,000 rows), each a system prompt, a user question, a trained choice
 * that calls a tool, the tool's result and a trained final answer, with long contents. Run in a
 * child process (`node parquetLogWriter.js <path> <rowGroupSize|default> <offsetIndex>`), so the
 * benchmark's own heap holds none of the writing.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { artParquetBytesOfRows } from '../support/artParquet';
import { pythonJsonDumps } from '../support/artParquet';
import { randomFrom, sentence } from './generatedText';

export const logGroups = 12_500;
export const logGroupSize = 8;

function sentences(random: () => number, count: number): string {
  return Array.from({ length: count }, () => sentence(random, 18)).join(' ');
}

const tools = [{ type: 'function', function: { name: 'lookup', description: 'Looks a fact up in the table.', parameters: { type: 'object', properties: { query: { type: 'string' } } } } }];

function rows(): Record<string, unknown>[] {
  const random = randomFrom(11);
  const all: Record<string, unknown>[] = [];
  for (let group = 0; group < logGroups; group++) {
    const question = `Question ${group}: ${sentences(random, 3)}`;
    for (let position = 0; position < logGroupSize; position++) {
      const id = `call_${group}_${position}`;
      const call = [{ id, type: 'function', function: { name: 'lookup', arguments: pythonJsonDumps({ query: sentences(random, 1) }) } }];
      all.push({
        group_index: BigInt(group),
        group_metadata: pythonJsonDumps({ step: Math.floor(group / 100), scenario: `s${group}` }),
        group_metrics: null,
        group_logs: null,
        reward: group % 10 === 0 ? 1 : Math.round(random() * 100) / 100,
        metrics: pythonJsonDumps({ correct: random() < 0.5, steps: Math.floor(random() * 12) }),
        metadata: pythonJsonDumps({ problem: `${group}-${position}` }),
        tools: pythonJsonDumps(tools),
        logs: null,
        messages: [
          {
            role: 'system',
            content: 'You are a careful assistant that answers questions with the lookup tool, then explains the answer step by step.',
            tool_calls: null,
            tool_call_id: null,
            trainable: false,
          },
          { role: 'user', content: question, tool_calls: null, tool_call_id: null, trainable: false },
          { role: 'assistant', content: sentences(random, 3), tool_calls: pythonJsonDumps(call), tool_call_id: null, trainable: true },
          { role: 'tool', content: sentences(random, 4), tool_calls: null, tool_call_id: id, trainable: false },
          { role: 'assistant', content: sentences(random, 4), tool_calls: null, tool_call_id: null, trainable: true },
        ],
      });
    }
  }
  return all;
}

async function main(): Promise<void> {
  const [path, rowGroupSize, offsetIndex] = process.argv.slice(2);
  if (!path) throw new Error('usage: parquetLogWriter <path> <rowGroupSize|default> <offsetIndex>');
  const bytes = await artParquetBytesOfRows(rows() as never, {
    ...(rowGroupSize && rowGroupSize !== 'default' ? { rowGroupSize: Number(rowGroupSize) } : {}),
    offsetIndex: offsetIndex !== 'false',
  });
  const partial = `${path}.${process.pid}.partial`;
  writeFileSync(partial, bytes);
  renameSync(partial, path);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
