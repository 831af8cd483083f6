/**
 * The settings RL Studio's features read besides the endpoints and limits of the settings store,
 * by name under `rlStudio.`. Every read goes through `featureSetting` (src/platform/host/settings.ts)
 * with one of these names, so that this list is every setting a feature reads; a unit test checks
 * that package.json declares each, with its description and bounds.
 */
export const featureSettingNames = [
  'rollouts.highVarianceThreshold',
  'rollouts.repetitionThreshold',
  'evals.concurrency',
  'webhooks.receiverPort',
  'webhooks.testTimeoutSeconds',
  'payload.diagnosticsDelayMs',
  'payload.jsonSyntaxErrors',
  'languageModels.pickerModels',
  'notifications.jobFinished',
  'notifications.jobFailed',
  'notifications.jobStalled',
  'localRuns.folders',
] as const;

export type FeatureSettingName = (typeof featureSettingNames)[number];
