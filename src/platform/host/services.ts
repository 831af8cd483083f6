import * as vscode from 'vscode';
import type * as Network from '../client';
import type { ClientOptions, PlatformClient } from '../client';
import { describeFailure, type Failure, type FailureAction } from '../client/describeFailure';
import { PlatformHealth } from '../health/health';
import { ContextKeys, setContext } from './contextKeys';
import { CredentialStore } from './credentials';
import { CommandTable } from './lazy/commandTable';
import type { LateFeature } from './lazy/featureCommands';
import { onFirstUse } from './lazy/onFirstUse';
import { RedactingLog } from './log';
import { isConfigured, SettingsStore, type Settings } from './settings';
import { RememberedList, type PinnedModel, type RememberedJob, type RememberedModel } from './rememberedItems';
import { ApprovalList, approvedStorageKey, declinedStorageKey } from '../trust/approvals';
import { Dialogs } from './dialogs';

export type NetworkModule = typeof Network;

/** A key check should not keep someone waiting for the full request timeout. */
const probeTimeoutMs = 15_000;

/**
 * What every feature of the VS Code layer receives: the context, the log, settings, credentials,
 * the one platform client (created on first use) and a command registration that logs and shows
 * errors in one place. There is one Services object: features loaded late get the same one.
 */
export interface Services {
  readonly context: vscode.ExtensionContext;
  /**
   * True only while VS Code runs this extension's own tests (ExtensionMode.Test). Test hooks (an
   * exported API, arguments that stand in for dialogs or secrets) exist only then: a normal install,
   * where any other extension can call our commands, has none of them.
   */
  readonly testMode: boolean;
  readonly log: RedactingLog;
  /** Every dialog of the extension (answers can be queued only in test mode). */
  readonly dialogs: Dialogs;
  /** Settings as RL Studio uses them: workspace-set endpoints only once the user allowed them. */
  readonly settings: SettingsStore;
  /** The user's answers about workspace-set endpoints: allowed (all workspaces) and declined (this one). */
  readonly approvals: { allowed: ApprovalList; declined: ApprovalList };
  /** Aborted when the extension is disposed: work that outlives a call (a send, a poll) stops with it. */
  readonly lifetime: AbortSignal;
  readonly credentials: CredentialStore;
  /** Training models and jobs the user created or added by id, for the current training API. */
  readonly remembered: { models: RememberedList<RememberedModel>; jobs: RememberedList<RememberedJob>; pinned: RememberedList<PinnedModel> };
  /** Loads dist/network.js (undici and the client) on first call. */
  network(): Promise<NetworkModule>;
  /** The one platform client for the current settings; rebuilt when settings change. Fails once disposed. */
  client(): Promise<PlatformClient>;
  /**
   * A short-lived client with the same settings but a given key, one retry and a short timeout:
   * for checking a key before it is saved. The caller closes it.
   */
  probeClient(apiKey: string): Promise<PlatformClient>;
  /** Fires after the client is replaced (settings changed) or the sign-in state changed. */
  readonly onDidChangeConnection: vscode.Event<void>;
  /**
   * Whether each API answers, as every call of the client and every health check saw it: the
   * status bar and the views read it, so they agree and learn of an outage within seconds.
   */
  readonly health: PlatformHealth;
  /** The reason for a failure, in plain words naming the API and its address; redacted. */
  describeFailure(error: unknown): Failure;
  /**
   * Registers the handler of a command of package.json (or a test-only one). Whoever calls it, a
   * command runs the same way: logged, and an error it throws shown as a message. A command of
   * the activation glue is registered with VS Code at once; one of a late feature fills the slot
   * of the stand-in registered at activation (registerFeatureCommands). Which is which is the
   * table in lazy/featureCommands.ts; an id missing from it throws.
   */
  registerCommand(id: string, handler: (...args: any[]) => unknown): void;
  /**
   * At activation: registers every command the table gives `feature`, each loading the feature
   * (`load`, an onFirstUse loader) on its first call and then running the handler it registered.
   */
  registerFeatureCommands(feature: LateFeature, load: () => unknown): void;
  /** Shows one readable message for an error, with the action that fixes it. */
  showError(error: unknown, doing?: string): void;
}

export function createServices(context: vscode.ExtensionContext): Services {
  const testMode = context.extensionMode === vscode.ExtensionMode.Test;
  const log = new RedactingLog('RL Studio');
  const dialogs = new Dialogs(testMode);
  const approvals = {
    allowed: new ApprovalList(context.globalState, approvedStorageKey),
    declined: new ApprovalList(context.workspaceState, declinedStorageKey),
  };
  const settings = new SettingsStore(approvals.allowed);
  const credentials = new CredentialStore(context.secrets);
  const connectionChanged = new vscode.EventEmitter<void>();
  const lifetime = new AbortController();
  const scope = () => settings.current.trainingApiUrl || 'unset';
  const health = new PlatformHealth({ context: () => failureContext(settings.current) });
  const remembered = {
    models: new RememberedList<RememberedModel>(context.globalState, 'models', scope),
    jobs: new RememberedList<RememberedJob>(context.globalState, 'jobs', scope),
    pinned: new RememberedList<PinnedModel>(context.globalState, 'pinned', scope),
  };
  context.subscriptions.push(log, approvals.allowed, approvals.declined, settings, credentials, connectionChanged, remembered.models, remembered.jobs, remembered.pinned);

  let networkModule: NetworkModule | undefined;
  let clientPromise: Promise<PlatformClient> | undefined;
  let disposed = false;

  // dist/network.js, a bundle of its own (see esbuild.mjs).
  const loadNetwork = onFirstUse('network stack', log, () => (networkModule = require('../client') as NetworkModule));
  const network = async (): Promise<NetworkModule> => loadNetwork();

  /** `reportsHealth`: false for a key being checked before it is saved: its 401 says nothing about the stored key. */
  const clientOptions = (current: Settings, getApiKey: () => Promise<string | undefined>, reportsHealth = true): ClientOptions => ({
    trainingUrl: current.trainingApiUrl,
    inferenceUrl: current.inferenceApiUrl,
    project: current.project || undefined,
    timeoutMs: current.requestTimeoutMs,
    credentials: { getApiKey },
    userAgent: `rl-studio-vscode/${(context.extension.packageJSON as { version: string }).version} vscode/${vscode.version}`,
    logger: (entry) => {
      const outcome = entry.error ? `failed: ${entry.error}` : String(entry.status);
      const retry = entry.attempt > 1 ? ` (attempt ${entry.attempt})` : '';
      const line = `${entry.api} ${entry.method} ${entry.path} → ${outcome} in ${Math.round(entry.ms)} ms${retry}`;
      if (entry.error || (entry.status ?? 0) >= 400) log.warn(line);
      else log.info(line);
      // Every attempt tells the health state whether its API answers: a refused connection turns
      // the status bar red at once, the next answer turns it back.
      if (reportsHealth && (entry.api === 'training' || entry.api === 'inference')) {
        health.noteCall({ api: entry.api, method: entry.method, path: entry.path, status: entry.status, ms: entry.ms, error: entry.error, kind: entry.kind });
      }
    },
  });

  /**
   * Clients whose close() has not finished (a replaced client keeps answering its requests in
   * flight): all of them are destroyed with the extension.
   */
  const live = new Set<PlatformClient>();
  const track = (client: PlatformClient): PlatformClient => {
    if (disposed) {
      void client.destroy();
      throw new Error('RL Studio was turned off');
    }
    live.add(client);
    const close = client.close.bind(client);
    client.close = () => close().finally(() => live.delete(client));
    return client;
  };

  const buildClient = async (current: Settings): Promise<PlatformClient> => {
    const { PlatformClient } = await network();
    return track(
      new PlatformClient(
        clientOptions(current, async () => {
          const key = await credentials.getApiKey();
          log.addSecret(key);
          return key;
        }),
      ),
    );
  };

  const probeClient = async (apiKey: string): Promise<PlatformClient> => {
    if (disposed) throw new Error('RL Studio was turned off');
    const { PlatformClient } = await network();
    log.addSecret(apiKey);
    const options = clientOptions(settings.current, async () => apiKey, false);
    return track(new PlatformClient({ ...options, timeoutMs: Math.min(options.timeoutMs ?? probeTimeoutMs, probeTimeoutMs), maxRetries: 1 }));
  };

  const resetClient = (): void => {
    const previous = clientPromise;
    clientPromise = undefined;
    if (previous) void previous.then((client) => client.close()).catch(() => undefined);
    health.reset();
    connectionChanged.fire();
  };

  /**
   * The extension is turned off (disabled, uninstalled, window closing): requests in flight are
   * aborted and their sockets closed at once, and no new client is built, so nothing outlives it.
   */
  const shutDown = (): void => {
    disposed = true;
    lifetime.abort();
    clientPromise = undefined;
    for (const client of live) void client.destroy().catch(() => undefined);
    live.clear();
    void networkModule?.closeRawConnections().catch(() => undefined);
  };

  const client = (): Promise<PlatformClient> => {
    if (disposed) return Promise.reject(new Error('RL Studio was turned off'));
    return (clientPromise ??= buildClient(settings.current));
  };

  const updateContext = async (): Promise<void> => {
    setContext(ContextKeys.configured, isConfigured(settings.current));
    setContext(ContextKeys.signedIn, await credentials.isSignedIn());
  };

  void credentials.getApiKey().then((key) => log.addSecret(key));
  void updateContext();
  context.subscriptions.push(
    settings.onDidChange(() => {
      void updateContext();
      resetClient();
      remembered.models.scopeChanged();
      remembered.jobs.scopeChanged();
      remembered.pinned.scopeChanged();
    }),
    credentials.onDidChange(() => {
      void credentials.getApiKey().then((key) => log.addSecret(key));
      void updateContext();
      health.reset();
      connectionChanged.fire();
    }),
    { dispose: shutDown },
  );

  const describe = (error: unknown): Failure => {
    const failure = describeFailure(error, failureContext(settings.current));
    return { ...failure, message: log.redact(failure.message), ...(failure.detail === undefined ? {} : { detail: log.redact(failure.detail) }) };
  };

  const showError = (error: unknown, doing?: string): void => {
    const failure = describe(error);
    const message = doing ? `${doing}: ${failure.message}` : failure.message;
    // The message says what happened; the log keeps the request that failed.
    log.error(failure.detail && failure.detail !== failure.message ? `${message} (${failure.detail})` : message);
    const actions = actionsFor(failure.action);
    dialogs.error(message, ...actions.map((action) => ({ title: action.title, run: () => vscode.commands.executeCommand(action.command) })));
  };

  const registerWithEditor = (id: string, handler: (...args: any[]) => unknown): void => {
    context.subscriptions.push(
      vscode.commands.registerCommand(id, async (...args: unknown[]) => {
        log.debug(`command ${id}`);
        try {
          return await handler(...args);
        } catch (error) {
          showError(error);
          return undefined;
        }
      }),
    );
  };
  const commands = new CommandTable({ registerWithEditor, testMode });

  return {
    context,
    testMode,
    log,
    dialogs,
    settings,
    approvals,
    lifetime: lifetime.signal,
    credentials,
    remembered,
    network,
    client,
    probeClient,
    onDidChangeConnection: connectionChanged.event,
    health,
    describeFailure: describe,
    registerCommand: (id, handler) => commands.register(id, handler),
    registerFeatureCommands: (feature, load) => commands.loadOnFirstCall(feature, load),
    showError,
  };
}

interface ErrorAction {
  title: string;
  command: string;
}

function actionsFor(action: FailureAction | undefined): ErrorAction[] {
  const showLog = { title: 'Show Log', command: 'rlStudio.showLog' };
  if (action === 'sign-in') return [{ title: 'Sign In', command: 'rlStudio.signIn' }, showLog];
  if (action === 'configure') return [{ title: 'Configure Endpoints', command: 'rlStudio.configure' }, showLog];
  return [showLog];
}

/** The addresses connection messages name ("Can't reach the training API at host:port"). */
function failureContext(current: Settings) {
  return { urls: { training: current.trainingApiUrl || undefined, inference: current.inferenceApiUrl || undefined } };
}
