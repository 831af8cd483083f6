import * as vscode from 'vscode';
import { registerAccountCommands } from './platform/host/account';
import { createTestApi, type RlStudioTestApi } from './testApi';
import { registerChat } from './chat/activation';
import { createServices } from './platform/host/services';
import type * as DevelopmentSeed from './platform/host/developmentSeed';
import { onFirstUse } from './platform/host/lazy/onFirstUse';
import { registerPayloadLanguage } from './webhooks/host/payload/payloadLanguageActivation';
import { registerAgent } from './agent/activation';
import { registerAlerts } from './alerts/activation';
import { registerEvals } from './evals/activation';
import { registerLocalRuns } from './localRuns/activation';
import { registerTaskRuns } from './taskRuns/activation';
import { registerRollouts } from './rollouts/activation';
import { registerWorkspaceEndpoints } from './platform/trust/activation';
import { registerViews } from './training/activation';
import { openWebhookStore, registerWebhooks } from './webhooks/activation';

/**
 * Kept cheap on purpose (test/bench measures it): it registers every command, view, serializer and
 * provider, and loads nothing else; nothing here touches the network. Each feature's activation.ts
 * registers what VS Code must know from the start, and the code that serves it is a bundle of its
 * own (its index.ts; see esbuild.host.mjs), loaded on first use through onFirstUse: the client and
 * undici on the first request (Services.network), the sidebar, the chat, the language models, the
 * payload language and the webhooks when first shown or run. A command such a feature handles is
 * registered here as a stand-in that loads the feature (lazy/featureCommands.ts says which feature
 * handles each command). The platform modules this runs ship in the same file, dist/extension.js,
 * and the features take them from it.
 *
 * It returns nothing in a normal install: whatever activate() returns is handed to every other
 * extension that asks (vscode.extensions.getExtension(...).exports). Only the extension's own tests
 * (ExtensionMode.Test) get an API.
 */
export function activate(context: vscode.ExtensionContext): RlStudioTestApi | undefined {
  const services = createServices(context);
  registerWorkspaceEndpoints(services);
  // Signs the demo workbench in (see the file); it acts in development mode only, so it loads only then.
  if (context.extensionMode === vscode.ExtensionMode.Development) {
    const seed = onFirstUse('development seed', services.log, () => require('./platform/host/developmentSeed') as typeof DevelopmentSeed);
    void seed().applyDevelopmentSeed(services);
  }
  registerAccountCommands(services);
  const sidebar = registerViews(services);
  registerChat(services);
  const rollouts = registerRollouts(services, sidebar);
  const webhookStore = openWebhookStore(services);
  const alerts = registerAlerts(services, sidebar, webhookStore);
  // A canary's drop runs the alert rules that watch for one (the alerts load only then, or with a rules file).
  const evals = registerEvals(services, {
    sidebar,
    dropped: (drop) =>
      alerts().canaryDropped({
        modelId: drop.modelId,
        modelLabel: drop.modelName,
        checkpointStep: drop.step,
        score: drop.verdict.score.mean,
        message: drop.message,
        ...(drop.verdict.best ? { best: drop.verdict.best.mean } : {}),
        ...(drop.verdict.comparison ? { interval: [drop.verdict.comparison.low, drop.verdict.comparison.high] as const } : {}),
      }),
  });
  const localRuns = registerLocalRuns(services);
  const taskRuns = registerTaskRuns(services, sidebar);
  const payloadLanguage = registerPayloadLanguage(services, webhookStore);
  const webhooks = registerWebhooks(services, webhookStore, payloadLanguage);
  const agent = registerAgent(services, { evals, payloadLanguage, webhooks, store: webhookStore });
  return services.testMode ? createTestApi(services, sidebar, rollouts, agent, evals, localRuns, alerts, taskRuns) : undefined;
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
