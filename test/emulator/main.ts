/**
 * `npm run emulator`: runs the local platform emulator until interrupted.
 *   --port N                default 8787; when it is taken, a free port instead (and a line saying
 *                           so), as `npm start` does; 0 always picks a free one
 *   --key K                 default emulator-key
 *   --seconds-per-step S    default 2
 *   --stream-delay MS       delay between streamed chat chunks, default 30
 *   --completion-latency MS fixed extra time of every chat completion, default 0
 *   --no-seed               start empty (no demo models or jobs)
 */
import { preferredPort } from '../vscode/freePort';
import { startEmulator } from './index';

interface CliOptions {
  port: number;
  key: string;
  secondsPerStep: number;
  streamDelayMs: number;
  completionLatencyMs: number;
  seed: boolean;
}

function parseArguments(argv: string[]): CliOptions {
  const options: CliOptions = { port: 8787, key: 'emulator-key', secondsPerStep: 2, streamDelayMs: 30, completionLatencyMs: 0, seed: true };
  const numberAfter = (index: number, flag: string): number => {
    const value = Number(argv[index + 1]);
    if (argv[index + 1] === undefined || !Number.isFinite(value) || value < 0) throw new Error(`${flag} needs a non-negative number`);
    return value;
  };
  for (let index = 0; index < argv.length; index++) {
    const flag = argv[index];
    switch (flag) {
      case '--port':
        options.port = numberAfter(index++, flag);
        break;
      case '--key': {
        const key = argv[++index];
        if (!key) throw new Error('--key needs a value');
        options.key = key;
        break;
      }
      case '--seconds-per-step':
        options.secondsPerStep = numberAfter(index++, flag);
        break;
      case '--stream-delay':
        options.streamDelayMs = numberAfter(index++, flag);
        break;
      case '--completion-latency':
        options.completionLatencyMs = numberAfter(index++, flag);
        break;
      case '--no-seed':
        options.seed = false;
        break;
      default:
        throw new Error(`Unknown option ${flag}. Options: --port N, --key K, --seconds-per-step S, --stream-delay MS, --completion-latency MS, --no-seed`);
    }
  }
  return options;
}

async function main(): Promise<void> {
  const options = parseArguments(process.argv.slice(2));
  // A taken port is not an error: an emulator left running elsewhere (or a second checkout) is the
  // usual reason, and the addresses printed below are what a person copies anyway.
  let port = options.port;
  if (port !== 0) {
    const { port: chosen, wantedWasBusy } = await preferredPort(port);
    if (wantedWasBusy) console.log(`Port ${port} is in use, so the emulator uses port ${chosen} instead.`);
    port = chosen;
  }
  const emulator = await startEmulator({
    port,
    apiKey: options.key,
    secondsPerStep: options.secondsPerStep,
    streamChunkDelayMs: options.streamDelayMs,
    completionLatencyMs: options.completionLatencyMs,
    seed: options.seed,
    onRequest: (line) => console.log(`${new Date().toISOString()} ${line}`),
  });
  console.log('Platform emulator running');
  console.log(`  training API:  ${emulator.trainingUrl}`);
  console.log(`  inference API: ${emulator.inferenceUrl}`);
  console.log(`  API key:       ${emulator.apiKey}`);
  console.log(`  control:       ${emulator.url}/_emulator/state`);
  if (emulator.seeded) {
    const seeded = emulator.seeded;
    console.log(`  demo model:    ${seeded.trainedModelEntity}/${seeded.trainedModelProject}/${seeded.trainedModelName} (${seeded.trainedModelId})`);
    console.log(`  running job:   ${seeded.runningJobId}`);
    console.log(`  failed job:    ${seeded.failedJobId}`);
    console.log(`  finished job:  ${seeded.succeededJobId}`);
  }
  const stop = () => {
    console.log('Stopping the emulator');
    void emulator.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
