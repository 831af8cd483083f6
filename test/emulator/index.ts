/** Starts the local platform emulator (see contract.ts for the surface). */
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { BASE_MODELS, INFERENCE_MODELS } from './catalogue';
import type { EmulatorEnv } from './context';
import type { Emulator, EmulatorOptions, Fault, StartEmulator } from './contract';
import { addFault } from './faults';
import { changePace } from './jobClock';
import { setRateLimit } from './rateLimit';
import { createModelWithCheckpoints, seedDemo } from './seed';
import { CONTROL_PREFIX, createRequestListener, INFERENCE_PREFIX, TRAINING_PREFIX } from './server';
import { EmulatorState } from './state';

export type { Emulator, EmulatorOptions, Fault, StartEmulator } from './contract';

const DEFAULT_API_KEY = 'emulator-key';
const DEFAULT_SECONDS_PER_STEP = 0.05;

/** Timers that never keep the process alive and can all be cancelled when the emulator closes. */
class Sleeper {
  private readonly pending = new Map<NodeJS.Timeout, () => void>();
  closed = false;

  sleep(ms: number): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(timer);
        resolve();
      }, ms);
      timer.unref();
      this.pending.set(timer, resolve);
    });
  }

  close(): void {
    this.closed = true;
    for (const [timer, resolve] of this.pending) {
      clearTimeout(timer);
      resolve();
    }
    this.pending.clear();
  }
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

export const startEmulator: StartEmulator = async (options: EmulatorOptions = {}) => {
  const sleeper = new Sleeper();
  const state = new EmulatorState();
  const env: EmulatorEnv = {
    state,
    settings: {
      apiKey: options.apiKey ?? DEFAULT_API_KEY,
      secondsPerStep: options.secondsPerStep ?? DEFAULT_SECONDS_PER_STEP,
      streamChunkDelayMs: options.streamChunkDelayMs ?? 0,
    },
    baseModels: BASE_MODELS,
    inferenceModels: INFERENCE_MODELS,
    seeded: undefined,
    now: () => Date.now(),
    sleep: (ms) => sleeper.sleep(ms),
    isClosed: () => sleeper.closed,
  };
  state.completionLatencyMs = Math.max(0, options.completionLatencyMs ?? 0);
  if (options.seed ?? true) env.seeded = seedDemo(env);

  const server = createServer(createRequestListener(env, options.onRequest ? { onResponse: options.onRequest } : {}));
  // Every socket is tracked so that close() ends kept-alive and streaming connections too.
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const port = await listen(server, options.port ?? 0);
  const url = `http://127.0.0.1:${port}`;
  let closing: Promise<void> | undefined;

  // Down and back: the listening socket closes (new connections are refused) and every open one is
  // dropped; back, the same server listens on the same port. One change at a time.
  let reachable = true;
  let switching: Promise<void> = Promise.resolve();
  let outageTimer: NodeJS.Timeout | undefined;
  const stopListening = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    });
  const setReachable = (wanted: boolean): Promise<void> => {
    if (outageTimer) clearTimeout(outageTimer);
    outageTimer = undefined;
    switching = switching.then(async () => {
      if (closing || wanted === reachable) return;
      reachable = wanted;
      if (wanted) await listen(server, port);
      else await stopListening();
    });
    return switching;
  };
  env.outage = (ms) => {
    void setReachable(false).then(() => {
      if (closing) return;
      outageTimer = setTimeout(() => void setReachable(true), ms);
      outageTimer.unref();
    });
  };

  const emulator: Emulator = {
    url,
    trainingUrl: url + TRAINING_PREFIX,
    inferenceUrl: url + INFERENCE_PREFIX,
    apiKey: env.settings.apiKey,
    get seeded() {
      return env.seeded;
    },
    requests: state.requests,
    addFault: (fault: Fault) => addFault(state, fault),
    clearFaults: () => {
      state.faults.length = 0;
    },
    setLatency: (ms) => {
      state.latencyMs = Math.max(0, ms);
    },
    setStreamChunkDelay: (ms) => {
      env.settings.streamChunkDelayMs = Math.max(0, ms);
    },
    setCompletionLatency: (ms) => {
      state.completionLatencyMs = Math.max(0, ms);
    },
    setRateLimit: (limit) => setRateLimit(state, limit),
    rateLimitedCount: () => state.rateLimit.answered,
    streamStats: () => ({ ...state.streams }),
    setSystemCheckFailure: (check) => {
      state.systemCheckFailure = check;
    },
    createModelWithCheckpoints: async (name, count) => createModelWithCheckpoints(env, name, count).id,
    setSecondsPerStep: (seconds) => {
      if (!(seconds > 0) || !Number.isFinite(seconds)) throw new Error('seconds per step must be a positive number');
      changePace(state, env.settings, seconds);
    },
    setReachable,
    get reachable() {
      return reachable;
    },
    close: () => {
      if (outageTimer) clearTimeout(outageTimer);
      outageTimer = undefined;
      closing ??= switching.then(
        () =>
          new Promise<void>((resolve) => {
            sleeper.close();
            // Already down: close() has nothing to stop and says so; either way it is closed.
            server.close(() => resolve());
            for (const socket of sockets) socket.destroy();
          }),
      );
      return closing;
    },
  };
  return emulator;
};

/** Where the control endpoint lives, for tools that drive an emulator in another process. */
export const controlUrl = (emulator: Emulator): string => emulator.url + CONTROL_PREFIX;
