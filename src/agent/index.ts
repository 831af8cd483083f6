import type * as vscode from 'vscode';
import type { Services } from '../platform/host/services';
import type { AgentToolName } from '../platform/agent/agentContributions';
import { languageModelTool, type AgentTool } from '../platform/agent/agentTool';
import { ToolFacts } from '../platform/agent/toolFacts';
import { AgentParticipant } from './host/participant';
import { evaluateCheckpointsTool, type EvalsFeature } from '../evals';
import { summariseRolloutsTool } from '../rollouts';
import {
  createModelTool,
  deleteCheckpointsTool,
  jobMetricsTool,
  jobStatusTool,
  listJobsTool,
  listModelsTool,
  platformStatusTool,
  startSftTool,
  startTrainingTool,
  validateTrajectoriesTool,
} from '../training';
import { renderPayloadTool, sendWebhookTestTool, type PayloadParts } from '../webhooks';

/** The features the tools work through, each loaded on its first use. */
export interface AgentParts extends PayloadParts {
  evals: () => EvalsFeature;
}

export interface AgentFeature {
  tools: ReadonlyMap<AgentToolName, vscode.LanguageModelTool<Record<string, unknown>>>;
  participant: AgentParticipant;
}

/**
 * Entry of dist/agent.js, loaded on the first tool call or chat request: the @rlstudio participant,
 * and the table of tools it hands to VS Code. Each tool lives in the feature whose data it reads
 * (src/<feature>/host/tools/) and comes from that feature's bundle, not copied into this one.
 */
export function startAgent(services: Services, parts: AgentParts): AgentFeature {
  const facts = new ToolFacts();
  // Each tool has its own input type; the table holds them side by side.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const tools: AgentTool<any, any, any>[] = [
    platformStatusTool(services),
    listModelsTool(services),
    listJobsTool(services),
    jobStatusTool(services),
    jobMetricsTool(services),
    summariseRolloutsTool(),
    validateTrajectoriesTool(),
    createModelTool(services),
    startTrainingTool(services),
    startSftTool(services),
    evaluateCheckpointsTool(services, parts.evals),
    deleteCheckpointsTool(services),
    renderPayloadTool(parts),
    sendWebhookTestTool(services, parts),
  ];
  return {
    tools: new Map(tools.map((tool) => [tool.name as AgentToolName, languageModelTool(services, tool, facts)])),
    participant: new AgentParticipant(services, facts),
  };
}
