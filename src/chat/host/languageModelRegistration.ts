import * as vscode from 'vscode';
import { errorMessage } from '../../platform/client/errorMessage';
import { onFirstUse } from '../../platform/host/lazy/onFirstUse';
import { RelayedEvent } from '../../platform/host/lazy/relayedEvent';
import type { Services } from '../../platform/host/services';
import type * as LanguageModels from '..';
import { languageModelVendor } from '../../platform/agent/agentContributions';

/**
 * Offers the inference catalogue in VS Code's own chat model picker. Registered only where the
 * editor has the language-model provider API, so the extension still activates on editors without
 * it; any failure there is logged, never thrown into activation. The provider itself
 * (with the chat, dist/chat.js) loads when the editor first asks for the models.
 */
export function registerLanguageModels(services: Services): void {
  const lm = (vscode as { lm?: Partial<typeof vscode.lm> }).lm;
  if (typeof lm?.registerLanguageModelChatProvider !== 'function' || typeof vscode.LanguageModelTextPart !== 'function') {
    services.log.info('this editor has no language model provider API: RL Studio models are offered in the RL Studio chat only');
    return;
  }
  try {
    const changed = new RelayedEvent<void>();
    const provider = onFirstUse('language models', services.log, () => {
      const real = new (require('..') as typeof LanguageModels).PlatformLanguageModels(services);
      services.context.subscriptions.push(real);
      changed.connect(real.onDidChangeLanguageModelChatInformation);
      return real;
    });
    const deferred: vscode.LanguageModelChatProvider = {
      onDidChangeLanguageModelChatInformation: changed.event,
      provideLanguageModelChatInformation: (options, token) => provider().provideLanguageModelChatInformation(options, token),
      provideLanguageModelChatResponse: (model, messages, options, progress, token) => provider().provideLanguageModelChatResponse(model, messages, options, progress, token),
      provideTokenCount: (model, text) => provider().provideTokenCount(model, text),
    };
    services.context.subscriptions.push(changed, lm.registerLanguageModelChatProvider(languageModelVendor, deferred));
  } catch (error) {
    services.log.warn(`registering RL Studio models with the editor's chat failed: ${errorMessage(error)}`);
  }
}
