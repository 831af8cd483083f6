import type * as vscode from 'vscode';
import { registerAccountCommands } from './vscode/platform/account';
import { createTestApi, type RlStudioTestApi } from './vscode/platform/testApi';
import { registerChat } from './vscode/chat/chatActivation';
import { createServices } from './vscode/platform/services';
import { applyDevelopmentSeed } from './vscode/platform/developmentSeed';
import { registerPayloadFeatures } from './vscode/payloadLanguage/payloadLanguageActivation';
import { registerWorkspaceEndpoints } from './vscode/trust/trustActivation';
import { registerViews } from './vscode/sidebar/sidebarActivation';

/**
 * Kept cheap on purpose: it registers every command, view, serializer and provider, and nothing
 * here touches the network. What serves them is built into bundles of their own that load on first
 * use (see hostBundles in esbuild.mjs): the client and undici on the first request (Services.network),
 * the sidebar, the chat and the payload features when first shown or run.
 *
 * It returns nothing in a normal install: whatever activate() returns is handed to every other
 * extension that asks (vscode.extensions.getExtension(...).exports). Only the extension's own tests
 * (ExtensionMode.Test) get an API.
 */
export function activate(context: vscode.ExtensionContext): RlStudioTestApi | undefined {
  const services = createServices(context);
  registerWorkspaceEndpoints(services);
  void applyDevelopmentSeed(services); // does nothing unless VS Code runs this extension in development mode (see the file)
  registerAccountCommands(services);
  const sidebar = registerViews(services);
  registerChat(services);
  registerPayloadFeatures(services);
  return services.testMode ? createTestApi(services, sidebar) : undefined;
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
