import * as vscode from 'vscode';

export interface Settings {
  /** Training API address without a trailing slash, or '' when not set. */
  trainingApiUrl: string;
  /** Inference API address without a trailing slash, or '' when not set. */
  inferenceApiUrl: string;
  /** `team/project` for the Compat-Project header, or ''. */
  project: string;
  requestTimeoutMs: number;
  pollingIntervalMs: number;
}

const section = 'rlStudio';

export function readSettings(): Settings {
  const config = vscode.workspace.getConfiguration(section);
  return {
    trainingApiUrl: normalizeUrl(config.get<string>('trainingApiUrl', '')),
    inferenceApiUrl: normalizeUrl(config.get<string>('inferenceApiUrl', '')),
    project: config.get<string>('project', '').trim(),
    requestTimeoutMs: seconds(config.get<number>('requestTimeoutSeconds', 60), 60) * 1000,
    pollingIntervalMs: seconds(config.get<number>('pollingIntervalSeconds', 1), 1) * 1000,
  };
}

/** True when at least one API address is set; each feature says which address it misses. */
export function isConfigured(settings: Settings): boolean {
  return settings.trainingApiUrl !== '' || settings.inferenceApiUrl !== '';
}

/** Watches the settings and reports a fresh snapshot when any RL Studio setting changes. */
export class SettingsStore implements vscode.Disposable {
  private snapshot = readSettings();
  private readonly changed = new vscode.EventEmitter<Settings>();
  readonly onDidChange = this.changed.event;
  private readonly subscription = vscode.workspace.onDidChangeConfiguration((event) => {
    if (!event.affectsConfiguration(section)) return;
    this.snapshot = readSettings();
    this.changed.fire(this.snapshot);
  });

  get current(): Settings {
    return this.snapshot;
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}

function normalizeUrl(value: string): string {
  return value.trim().replace(/\/+$/, '');
}

function seconds(value: number, fallback: number): number {
  return Number.isFinite(value) && value > 0 ? value : fallback;
}
