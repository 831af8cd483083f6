import * as vscode from 'vscode';
import { errorMessage } from '../platform/client/errorMessage';
import { onFirstUse } from '../platform/host/lazy/onFirstUse';
import type { Services } from '../platform/host/services';
import type * as Agent from '.';
import { agentToolNames, participantId } from '../platform/agent/agentContributions';

/**
 * RL Studio in VS Code's agent mode: its language-model tools and the `@rlstudio` participant are
 * registered here, at activation, as stand-ins; what serves them (dist/agent.js) loads on the
 * first call. Registered only where the editor has the APIs, so the extension still activates on
 * an editor without them; a failure here is logged, never thrown into activation.
 */
export function registerAgent(services: Services, parts: Agent.AgentParts): () => Agent.AgentFeature {
  const agent = onFirstUse('agent tools', services.log, () => (require('.') as typeof Agent).startAgent(services, parts));
  const lm = (vscode as { lm?: Partial<typeof vscode.lm> }).lm;
  try {
    if (typeof lm?.registerTool === 'function') {
      for (const name of agentToolNames) {
        services.context.subscriptions.push(
          lm.registerTool<Record<string, unknown>>(name, {
            prepareInvocation: (options, token) => agent().tools.get(name)!.prepareInvocation!(options, token),
            invoke: (options, token) => agent().tools.get(name)!.invoke(options, token),
          }),
        );
      }
    } else services.log.info('this editor has no language-model tools API: RL Studio offers no tools to its chat');
    const chat = (vscode as { chat?: Partial<typeof vscode.chat> }).chat;
    if (typeof chat?.createChatParticipant === 'function') {
      const participant = chat.createChatParticipant(participantId, (request, context, stream, token) => agent().participant.handle(request, context, stream, token));
      participant.iconPath = vscode.Uri.joinPath(services.context.extensionUri, 'media', 'icon.png');
      participant.followupProvider = { provideFollowups: (result, context, token) => agent().participant.followups(result, context, token) };
      services.context.subscriptions.push(participant);
    }
  } catch (error) {
    services.log.warn(`registering RL Studio's chat tools failed: ${errorMessage(error)}`);
  }
  return agent;
}
