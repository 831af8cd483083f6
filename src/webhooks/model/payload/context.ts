import type { SampleEvent } from './sample';

/** What the language features know about the webhook chosen for a document: names only, never values. */
export interface WebhookSecretNames {
  name: string;
  hasAccessToken: boolean;
  /** Name of the webhook's secret, when it has one. */
  secretName?: string;
}

/** Everything outside the document text that completion, hover and diagnostics depend on. */
export interface PayloadContext {
  /**
   * The webhook chosen for the document. When absent nobody knows which secrets exist, so secret
   * references are neither flagged nor completed by name.
   */
  webhook?: WebhookSecretNames;
  /** Metadata keys used elsewhere in the workspace, offered after `${artifact_metadata.`. */
  metadataKeys?: readonly string[];
  /** The event whose values hover and completion show as examples. */
  sample: SampleEvent;
}
