import * as vscode from 'vscode';
import { defaultThresholds, type SummaryThresholds } from '../model/groupSummaryShape';
import { affectsFeatureSettings, clampSetting, featureSetting } from '../../platform/host/settings';

const bounds = {
  highVarianceThreshold: { min: 0, max: 1_000_000, fallback: defaultThresholds.highVarianceStd },
  repetitionThreshold: { min: 0, max: 1, fallback: defaultThresholds.repetitionRatio },
} as const;

/** The flags' thresholds as the settings give them, each within its bounds. */
export function rolloutThresholds(): SummaryThresholds {
  return {
    ...defaultThresholds,
    highVarianceStd: clampSetting(featureSetting('rollouts.highVarianceThreshold'), bounds.highVarianceThreshold),
    repetitionRatio: clampSetting(featureSetting('rollouts.repetitionThreshold'), bounds.repetitionThreshold),
  };
}

export function affectsRolloutThresholds(event: vscode.ConfigurationChangeEvent): boolean {
  return affectsFeatureSettings(event, 'rollouts');
}
