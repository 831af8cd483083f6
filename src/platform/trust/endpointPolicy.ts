/**
 * Where each endpoint setting comes from, and which value RL Studio may use with the API key.
 *
 * A repository's `.vscode/settings.json` (workspace or folder settings) is written by whoever
 * published the repository, not by the user. Opening it must not send the user's key to an address
 * it names, so such a value is used only once the user allowed its origin (or its project value);
 * until then the setting keeps the user's own value (user settings or the default), exactly as if
 * the workspace had not set it. No vscode import: tested in Node.
 */
import { checkApiAddress, shownOrigin } from './addresses';

/** The layers of `WorkspaceConfiguration.inspect()` that matter here (language overrides are not read). */
export interface InspectedSetting {
  defaultValue?: unknown;
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

export interface InspectedEndpoints {
  trainingApiUrl: InspectedSetting | undefined;
  inferenceApiUrl: InspectedSetting | undefined;
  project: InspectedSetting | undefined;
}

export type EndpointSetting = keyof InspectedEndpoints;

/** A workspace value waiting for the user's approval. */
export interface PendingApproval {
  setting: EndpointSetting;
  /** What the workspace sets (an address or a project). */
  value: string;
  /** What is approved: `origin:https://host:443` or `project:team/name`. */
  approvalKey: string;
  /** The origin or project as the question shows it. */
  shown: string;
}

/** A value RL Studio refuses whatever the approvals say (plain http to another machine, not an address). */
export interface RefusedValue {
  setting: EndpointSetting;
  value: string;
  fromWorkspace: boolean;
  problem: string;
}

export interface EndpointDecision {
  trainingApiUrl: string;
  inferenceApiUrl: string;
  project: string;
  pending: PendingApproval[];
  refused: RefusedValue[];
}

const projectPattern = /^[^/\s]+\/[^/\s]+$/;

export const settingLabels: Record<EndpointSetting, string> = {
  trainingApiUrl: 'training API',
  inferenceApiUrl: 'inference API',
  project: 'project',
};

export function decideEndpoints(inspected: InspectedEndpoints, isApproved: (approvalKey: string) => boolean): EndpointDecision {
  const pending: PendingApproval[] = [];
  const refused: RefusedValue[] = [];

  // Origins the user wrote in their own settings need no question: they chose them.
  const ownOrigins = new Set<string>();
  for (const setting of ['trainingApiUrl', 'inferenceApiUrl'] as const) {
    const own = checkApiAddress(userLayer(inspected[setting]));
    if (own.ok && own.origin) ownOrigins.add(own.origin);
  }

  const address = (setting: 'trainingApiUrl' | 'inferenceApiUrl'): string => {
    const layers = inspected[setting];
    const own = ownValue(setting, layers, refused);
    const fromWorkspace = workspaceLayer(layers);
    if (fromWorkspace === undefined) return own;
    const checked = checkApiAddress(fromWorkspace);
    if (!checked.ok) {
      refused.push({ setting, value: String(fromWorkspace), fromWorkspace: true, problem: checked.problem });
      return own;
    }
    // A workspace that clears the setting sends nothing anywhere.
    if (checked.url === '') return '';
    const approvalKey = `origin:${checked.origin}`;
    if (ownOrigins.has(checked.origin) || isApproved(approvalKey)) return checked.url;
    pending.push({ setting, value: checked.url, approvalKey, shown: shownOrigin(checked.origin) });
    return own;
  };

  const project = (): string => {
    const layers = inspected.project;
    const own = ownProject(layers, refused);
    const fromWorkspace = workspaceLayer(layers);
    if (fromWorkspace === undefined) return own;
    const value = typeof fromWorkspace === 'string' ? fromWorkspace.trim() : '';
    if (value === '') return '';
    if (!projectPattern.test(value)) {
      refused.push({ setting: 'project', value: String(fromWorkspace), fromWorkspace: true, problem: 'use the form team/project' });
      return own;
    }
    const approvalKey = `project:${value}`;
    if (value === own || isApproved(approvalKey)) return value;
    pending.push({ setting: 'project', value, approvalKey, shown: value });
    return own;
  };

  return { trainingApiUrl: address('trainingApiUrl'), inferenceApiUrl: address('inferenceApiUrl'), project: project(), pending, refused };
}

/** Folder settings win over workspace settings, as in VS Code. */
function workspaceLayer(layers: InspectedSetting | undefined): unknown {
  return layers?.workspaceFolderValue ?? layers?.workspaceValue;
}

function userLayer(layers: InspectedSetting | undefined): unknown {
  return layers?.globalValue ?? layers?.defaultValue;
}

function ownValue(setting: EndpointSetting, layers: InspectedSetting | undefined, refused: RefusedValue[]): string {
  const value = userLayer(layers);
  const checked = checkApiAddress(value);
  if (checked.ok) return checked.url;
  refused.push({ setting, value: String(value), fromWorkspace: false, problem: checked.problem });
  return '';
}

function ownProject(layers: InspectedSetting | undefined, refused: RefusedValue[]): string {
  const value = userLayer(layers);
  const text = typeof value === 'string' ? value.trim() : '';
  if (text === '' || projectPattern.test(text)) return text;
  refused.push({ setting: 'project', value: String(value), fromWorkspace: false, problem: 'use the form team/project' });
  return '';
}
