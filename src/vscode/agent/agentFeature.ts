import type * as vscode from 'vscode';
import type { Services } from '../platform/services';
import type { EvalsFeature } from '../evals/evalsFeature';
import type { AgentToolName } from './agentToolNames';
import { AgentParticipant } from './participant';
import { languageModelTool, type AgentTool } from './tools/agentTool';
import { evaluateCheckpointsTool } from './tools/evaluationTool';
import { summariseRolloutsTool, validateTrajectoriesTool } from './tools/fileTools';
import { jobMetricsTool, jobStatusTool } from './tools/jobTools';
import { LatestJobListing, listJobsTool, listModelsTool, platformStatusTool } from './tools/platformTools';
import { createModelTool, deleteCheckpointsTool, startSftTool, startTrainingTool } from './tools/trainingTools';
import { renderPayloadTool, sendWebhookTestTool, type PayloadParts } from './tools/webhookTools';

/** The features the tools work through, each loaded on its first use. */
export interface AgentParts extends PayloadParts {
  evals: () => EvalsFeature;
}

export interface AgentFeature {
  tools: ReadonlyMap<AgentToolName, vscode.LanguageModelTool<Record<string, unknown>>>;
  participant: AgentParticipant;
}

/** Entry of dist/agent.js, loaded on the first tool call or chat request. */
export function startAgent(services: Services, parts: AgentParts): AgentFeature {
  const latestJobs = new LatestJobListing();
  // Each tool has its own input type; the table holds them side by side.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const tools: AgentTool<any, any>[] = [
    platformStatusTool(services),
    listModelsTool(services),
    listJobsTool(services, latestJobs),
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
    tools: new Map(tools.map((tool) => [tool.name as AgentToolName, languageModelTool(services, tool)])),
    participant: new AgentParticipant(services, latestJobs),
  };
}
