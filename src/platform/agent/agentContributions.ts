/**
 * What RL Studio contributes to VS Code's chat, by the names package.json gives them. First the
 * language-model tools (languageModelTools), registered at activation; their code loads on first use. test/unit/platform/agent/agentContributions.test.ts checks
 * this list against package.json.
 */
export const agentToolNames = [
  'rlstudio_platform_status',
  'rlstudio_list_models',
  'rlstudio_list_jobs',
  'rlstudio_job_status',
  'rlstudio_job_metrics',
  'rlstudio_summarise_rollouts',
  'rlstudio_validate_trajectories',
  'rlstudio_create_model',
  'rlstudio_start_training',
  'rlstudio_start_sft',
  'rlstudio_evaluate_checkpoints',
  'rlstudio_delete_checkpoints',
  'rlstudio_render_payload',
  'rlstudio_send_webhook_test',
] as const;

export type AgentToolName = (typeof agentToolNames)[number];

/** The chat participant's id (package.json's chatParticipants): `@rlstudio` in the chat. */
export const participantId = 'rlStudio.agent';

/** The vendor of RL Studio's models in VS Code's model picker (package.json's languageModelChatProviders). */
export const languageModelVendor = 'rl-studio';
