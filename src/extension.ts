import type * as vscode from 'vscode';
import { registerAccountCommands } from './vscode/account';
import { createApi, type RlStudioApi } from './vscode/api';
import { registerChat } from './vscode/chat/register';
import { createServices } from './vscode/services';
import { registerPayloadFeatures } from './vscode/payload/register';
import { registerViews } from './vscode/views/register';

/**
 * Kept cheap on purpose: it wires commands, views and providers, and nothing here touches the
 * network. The client and undici load on the first request (see Services.network).
 */
export function activate(context: vscode.ExtensionContext): RlStudioApi {
  const services = createServices(context);
  registerAccountCommands(services);
  const views = registerViews(services);
  registerChat(services);
  registerPayloadFeatures(services);
  return createApi(services, views);
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
