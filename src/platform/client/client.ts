/** The platform client: both APIs over one set of keep-alive connection pools. */
import { ApiCaller } from './apiCaller';
import { InferenceApi } from './inferenceApi';
import { resolveClientOptions, type ClientOptions } from './options';
import { TrainingApi } from './trainingApi';
import { Transport } from './transport';

export class PlatformClient {
  readonly training: TrainingApi;
  readonly inference: InferenceApi;
  private readonly transport: Transport;

  constructor(options: ClientOptions) {
    const resolved = resolveClientOptions(options);
    this.transport = new Transport({ connectTimeoutMs: resolved.connectTimeoutMs, connectionsPerOrigin: resolved.connectionsPerOrigin });
    const shared = {
      transport: this.transport,
      options: resolved,
      credentials: options.credentials,
      logger: options.logger,
      project: options.project?.trim() || undefined,
    };
    this.training = new TrainingApi(new ApiCaller('training', options.trainingUrl, shared));
    this.inference = new InferenceApi(new ApiCaller('inference', options.inferenceUrl, shared));
  }

  /** Closes the connection pools. */
  close(): Promise<void> {
    return this.transport.close();
  }

  /** Aborts the requests in flight, closes every socket now and refuses any later request. */
  destroy(): Promise<void> {
    return this.transport.destroy();
  }
}
