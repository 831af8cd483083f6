import * as vscode from 'vscode';
import type { FeatureSettingName } from './settingNames';
import type { ApprovalList } from '../trust/approvals';
import { decideEndpoints, type PendingApproval, type RefusedValue } from '../trust/endpointPolicy';

/** The settings RL Studio works with: what the user configured, workspace values only once approved. */
export interface Settings {
  /** Training API address without a trailing slash, or '' when not set (or not usable). */
  trainingApiUrl: string;
  /** Inference API address without a trailing slash, or '' when not set (or not usable). */
  inferenceApiUrl: string;
  /** `team/project` for the Compat-Project header, or ''. */
  project: string;
  requestTimeoutMs: number;
  pollingIntervalMs: number;
}

/** What the settings ask for that RL Studio does not use (yet). */
export interface SettingsReview {
  /** Workspace values waiting for the user's approval. */
  pending: PendingApproval[];
  /** Values refused outright (plain http to another machine, not an address). */
  refused: RefusedValue[];
}

const section = 'rlStudio';

/** Bounds of the numeric settings, as package.json declares them: code never trusts the schema alone. */
export const numericBounds = {
  requestTimeoutSeconds: { min: 1, max: 3600, fallback: 60 },
  pollingIntervalSeconds: { min: 0.5, max: 3600, fallback: 1 },
} as const;

export function readSettings(isApproved: (approvalKey: string) => boolean): { settings: Settings; review: SettingsReview } {
  const config = vscode.workspace.getConfiguration(section);
  // In Restricted Mode the workspace's values of these settings do not count (package.json lists
  // them as restricted); VS Code leaves them out, and so does this, whatever inspect() returns.
  const trusted = vscode.workspace.isTrusted !== false;
  const layers = (name: string) => {
    const inspected = config.inspect(name);
    return trusted || !inspected ? inspected : { defaultValue: inspected.defaultValue, globalValue: inspected.globalValue };
  };
  const endpoints = decideEndpoints({ trainingApiUrl: layers('trainingApiUrl'), inferenceApiUrl: layers('inferenceApiUrl'), project: layers('project') }, isApproved);
  return {
    settings: {
      trainingApiUrl: endpoints.trainingApiUrl,
      inferenceApiUrl: endpoints.inferenceApiUrl,
      project: endpoints.project,
      requestTimeoutMs: clampSetting(config.get<unknown>('requestTimeoutSeconds'), numericBounds.requestTimeoutSeconds) * 1000,
      pollingIntervalMs: clampSetting(config.get<unknown>('pollingIntervalSeconds'), numericBounds.pollingIntervalSeconds) * 1000,
    },
    review: { pending: endpoints.pending, refused: endpoints.refused },
  };
}

/** A number within its bounds; anything that is not a finite number gets the default. */
export function clampSetting(value: unknown, bounds: { min: number; max: number; fallback: number }): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) return bounds.fallback;
  return Math.min(bounds.max, Math.max(bounds.min, value));
}

/**
 * A feature's setting as the user or the workspace set it, or its default (package.json): the one
 * way a feature reads its settings. The feature bounds the value; nothing here trusts the schema.
 */
export function featureSetting(name: FeatureSettingName): unknown {
  return vscode.workspace.getConfiguration(section).get<unknown>(name);
}

/**
 * A feature's setting by where it was set (user, workspace, folder): for a setting whose workspace
 * value is held to a rule of its own (a folder must lie inside the workspace).
 */
export function featureSettingLayers(name: FeatureSettingName): { globalValue?: unknown; workspaceValue?: unknown; workspaceFolderValue?: unknown } | undefined {
  return vscode.workspace.getConfiguration(section).inspect<unknown>(name);
}

/** Sets a feature's setting in the user's own settings: a choice the person just made (a folder they picked). */
export async function setUserFeatureSetting(name: FeatureSettingName, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration(section).update(name, value, vscode.ConfigurationTarget.Global);
}

/** Whether a change of settings touches a feature's settings under `rlStudio.<group>`. */
export function affectsFeatureSettings(event: vscode.ConfigurationChangeEvent, group: 'rollouts' | 'payload' | 'languageModels' | 'localRuns'): boolean {
  return event.affectsConfiguration(`${section}.${group}`);
}

/**
 * Whether VS Code's own JSON validation is on (`json.validate.enable`, VS Code's setting, not RL
 * Studio's): payload diagnostics leave syntax errors to it while it is.
 */
export function editorValidatesJson(): boolean {
  return vscode.workspace.getConfiguration('json').get<boolean>('validate.enable', true) !== false;
}

/** True when at least one API address is set; each feature says which address it misses. */
export function isConfigured(settings: Settings): boolean {
  return settings.trainingApiUrl !== '' || settings.inferenceApiUrl !== '';
}

/**
 * Watches the settings and the user's approvals of workspace values, and reports a fresh snapshot
 * when either changes.
 */
export class SettingsStore implements vscode.Disposable {
  private snapshot: { settings: Settings; review: SettingsReview };
  private readonly changed = new vscode.EventEmitter<Settings>();
  readonly onDidChange = this.changed.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly approved: ApprovalList) {
    this.snapshot = readSettings((key) => approved.has(key));
    this.subscriptions = [
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration(section)) this.reread();
      }),
      approved.onDidChange(() => this.reread()),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.reread()),
    ];
  }

  get current(): Settings {
    return this.snapshot.settings;
  }

  get review(): SettingsReview {
    return this.snapshot.review;
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.changed.dispose();
  }

  private reread(): void {
    this.snapshot = readSettings((key) => this.approved.has(key));
    this.changed.fire(this.snapshot.settings);
  }
}
