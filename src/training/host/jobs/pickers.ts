import * as vscode from 'vscode';
import { parseExperimentalConfig } from '../../model/experimentalConfig';
import type { ExperimentalConfig } from '../../../platform/client/types';
import { modelLabel } from '../models/modelNodes';
import type { Services } from '../../../platform/host/services';
import type { Dialogs } from '../../../platform/host/dialogs';

/** Asks which training model to use: a remembered one, a new one, or one typed by id. */
export async function pickTargetModel(services: Services, dialogs: Dialogs, title: string): Promise<string | undefined> {
  const models = services.remembered.models.list();
  type Item = vscode.QuickPickItem & { action: 'model' | 'create' | 'byId'; id?: string };
  const items: Item[] = models.map((model) => ({
    label: modelLabel(model),
    description: model.entity ? `${model.entity}/${model.project}` : undefined,
    detail: model.id,
    action: 'model',
    id: model.id,
  }));
  items.push({ label: '$(add) Create a new model…', action: 'create' }, { label: '$(link) Enter a model id…', action: 'byId' });
  const picked = await dialogs.pick(items, { title, placeHolder: 'The training model to train', matchOnDetail: true });
  if (!picked) return undefined;
  if (picked.action === 'model') return picked.id;
  if (picked.action === 'create') {
    const created = (await vscode.commands.executeCommand('rlStudio.createModel')) as { id?: string } | undefined;
    return created?.id;
  }
  const added = (await vscode.commands.executeCommand('rlStudio.addModel')) as { id?: string } | undefined;
  return added?.id;
}

/** Asks for an optional experimental config; `null` means the user cancelled. */
export async function pickExperimentalConfig(dialogs: Dialogs): Promise<ExperimentalConfig | undefined | null> {
  const defaults = { label: 'Default settings', detail: "Train with the platform's defaults", custom: false };
  const custom = { label: 'Experimental config…', detail: 'Set learning_rate, loss_fn, kl_penalty_coef… as JSON', custom: true };
  const picked = await dialogs.pick([defaults, custom], { title: 'Training settings' });
  if (!picked) return null;
  if (!picked.custom) return undefined;
  const text = await dialogs.input({
    title: 'Experimental config (JSON object)',
    prompt: 'Keys include learning_rate, loss_fn ("cispo" | "ppo"), normalize_advantages, scale_rewards, kl_penalty_coef, epsilon…',
    value: '{"learning_rate": 1e-5}',
    validateInput: (value) => {
      const check = parseExperimentalConfig(value);
      return check.ok ? undefined : check.message;
    },
  });
  if (text === undefined) return null;
  const check = parseExperimentalConfig(text);
  return check.ok ? check.value : null;
}

/** The trajectory file a command was invoked on: the explorer's item, the editor's file, or one to choose. */
export async function trajectoryFileOf(dialogs: Dialogs, given: unknown): Promise<vscode.Uri | undefined> {
  if (given instanceof vscode.Uri) return given;
  if (typeof given === 'string' && given !== '') return vscode.Uri.file(given);
  const active = vscode.window.activeTextEditor?.document;
  if (active && /\.jsonl?$/i.test(active.fileName)) return active.uri;
  // A Parquet log has no text editor: the tab that shows it is a custom editor (the rollout inspector).
  const tab = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  if (tab instanceof vscode.TabInputCustom && /\.parquet$/i.test(tab.uri.path)) return tab.uri;
  return dialogs.openFile({ title: 'Trajectory groups file', filters: { 'Trajectory groups': ['jsonl', 'json', 'parquet'] }, openLabel: 'Use File' });
}
