/** The parts of the extension that own commands and load on first use, each a bundle of its own. */
export type LateFeature = 'training' | 'chat' | 'payloadLanguage' | 'webhooks' | 'evals' | 'localRuns' | 'taskRuns';

/** Who registers a command's handler: the activation glue itself, or a feature when it loads. */
export type CommandOwner = 'activation' | LateFeature;

/**
 * Every command of the extension and who handles it. VS Code needs each command of package.json
 * registered during activation (running one is what may activate the extension), so a command a
 * late feature handles is registered at activation as a stand-in whose first call loads the
 * feature; the feature then hands over the real handler through services.registerCommand.
 * test/unit/platform/host/featureCommands.test.ts checks this table against package.json.
 */
export const commandOwners = {
  'rlStudio.signIn': 'activation',
  'rlStudio.signOut': 'activation',
  'rlStudio.configure': 'activation',
  'rlStudio.showLog': 'activation',
  'rlStudio.reviewWorkspaceSettings': 'activation',
  'rlStudio.checkHealth': 'activation',
  'rlStudio.openEmulatorGuide': 'activation',

  'rlStudio.refreshModels': 'training',
  'rlStudio.refreshJobs': 'training',
  'rlStudio.createModel': 'training',
  'rlStudio.addModel': 'training',
  'rlStudio.removeModel': 'training',
  'rlStudio.deleteModel': 'training',
  'rlStudio.setModelName': 'training',
  'rlStudio.copyModelId': 'training',
  'rlStudio.openModelTraining': 'training',
  'rlStudio.compareRuns': 'training',
  'rlStudio.copyCheckpointModelId': 'training',
  'rlStudio.chatWithModel': 'training',
  'rlStudio.useInChat': 'training',
  'rlStudio.evaluateCheckpoints': 'evals',
  'rlStudio.pinCanary': 'evals',
  'rlStudio.startTaskRun': 'taskRuns',
  'rlStudio.stopTaskRun': 'taskRuns',
  'rlStudio.openRunDashboard': 'taskRuns',
  'rlStudio.unpinCanary': 'evals',
  'rlStudio.loadMoreCheckpoints': 'training',
  'rlStudio.refreshModel': 'training',
  'rlStudio.deleteCheckpoints': 'training',
  'rlStudio.createTrainingJob': 'training',
  'rlStudio.createSftJob': 'training',
  'rlStudio.logTrajectories': 'training',
  'rlStudio.openRolloutInspector': 'activation',
  'rlStudio.openRolloutsAsText': 'activation',
  'rlStudio.tryReward': 'activation',
  'rlStudio.addJob': 'training',
  'rlStudio.removeJob': 'training',
  'rlStudio.copyJobId': 'training',
  'rlStudio.openJobDetails': 'training',
  'rlStudio.refreshJob': 'training',
  'rlStudio.showOlderEvents': 'training',

  'rlStudio.refreshLocalRuns': 'localRuns',
  'rlStudio.addLocalRunsFolder': 'localRuns',
  'rlStudio.openLocalRun': 'localRuns',
  'rlStudio.openLocalStep': 'localRuns',
  'rlStudio.revealLocalRun': 'localRuns',
  'rlStudio.copyLocalModelPath': 'localRuns',
  'rlStudio.followLocalModel': 'localRuns',
  'rlStudio.openLoggedRollouts': 'localRuns',

  'rlStudio.openChat': 'chat',
  'rlStudio.newChat': 'chat',
  'rlStudio.chatWithSelection': 'chat',
  'rlStudio.chatReport': 'chat',

  'rlStudio.payload.chooseWebhook': 'payloadLanguage',
  'rlStudio.payload.preview': 'payloadLanguage',
  'rlStudio.payload.chooseSampleEvent': 'payloadLanguage',
  'rlStudio.payload.editSampleEvent': 'payloadLanguage',
  'rlStudio.payload.newFromTemplate': 'payloadLanguage',
  'rlStudio.payload.insertTemplate': 'payloadLanguage',

  'rlStudio.webhook.add': 'webhooks',
  'rlStudio.webhook.edit': 'webhooks',
  'rlStudio.webhook.remove': 'webhooks',
  'rlStudio.webhook.setAccessToken': 'webhooks',
  'rlStudio.webhook.removeAccessToken': 'webhooks',
  'rlStudio.webhook.setSecret': 'webhooks',
  'rlStudio.webhook.removeSecret': 'webhooks',
  'rlStudio.webhook.copyUrl': 'webhooks',
  'rlStudio.webhook.sendTest': 'webhooks',
  'rlStudio.webhook.refresh': 'webhooks',
  'rlStudio.webhook.startReceiver': 'webhooks',
  'rlStudio.webhook.stopReceiver': 'webhooks',
  'rlStudio.webhook.showReceiver': 'webhooks',
} as const satisfies Record<string, CommandOwner>;

export type CommandId = keyof typeof commandOwners;

/**
 * Test hooks: registered only while the extension runs its own tests, and never declared in
 * package.json. `chatReport` hands out what the chat panel shows (conversation text included),
 * which no other extension may read.
 */
export const testOnlyCommands: readonly CommandId[] = ['rlStudio.chatReport'];
