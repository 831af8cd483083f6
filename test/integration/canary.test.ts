import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { CanaryVerdict } from '../../src/evals/model/canary/canaryVerdict';
import type { RememberedModel } from '../../src/platform/host/rememberedItems';
import { GENERATED_PROJECT } from '../emulator/seed';
import { DEFAULT_ENTITY } from '../emulator/state';
import { trainingModelNode } from './helpers/models';
import { connectToEmulator, type ConnectedPlatform } from './helpers/platform';
import { waitUntil } from './helpers/waitUntil';

const fixtures = join(__dirname, '../../../test/fixtures');

describe('A canary on a model: each new checkpoint evaluated by itself, a regression told', function () {
  this.timeout(180_000);
  let platform: ConnectedPlatform;
  let setUri: vscode.Uri;
  const verdicts: (CanaryVerdict & { modelId: string })[] = [];
  let listening: vscode.Disposable | undefined;

  before(async () => {
    platform = await connectToEmulator({ secondsPerStep: 0.3 });
    const folder = vscode.workspace.workspaceFolders![0]!.uri;
    setUri = vscode.Uri.joinPath(folder, 'evals', 'arith.evalset.jsonl');
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(folder, 'evals'));
    await vscode.workspace.fs.writeFile(setUri, await vscode.workspace.fs.readFile(vscode.Uri.file(join(fixtures, 'evals', 'arith.evalset.jsonl'))));
    listening = platform.api.evals.canary.onDidEvaluate((verdict) => verdicts.push(verdict));
  });

  after(async () => {
    listening?.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await platform?.disconnect();
  });

  it('evaluates the newest checkpoint when pinned, then each one a followed job adds, within its budget, and tells the drop below the best with its interval', async () => {
    // Steps 0–20 exist; a job of four groups adds 21–24, where the emulator's checkpoints regress (step 20 is the best).
    const modelId = await platform.emulator.createModelWithCheckpoints('canary-watch', 21);
    const model = await vscode.commands.executeCommand<RememberedModel | undefined>('rlStudio.addModel', modelId, `${DEFAULT_ENTITY}/${GENERATED_PROJECT}/canary-watch`);
    assert.ok(model, 'the model is followed');
    const completions = () => platform.emulator.requests.filter((request) => request.path === '/training/v1/chat/completions').length;
    const before = completions();

    platform.api.dialogs.answerNext(vscode.workspace.asRelativePath(setUri), 'Exact match', true);
    const pinned = await vscode.commands.executeCommand<boolean>('rlStudio.pinCanary', { kind: 'trainingModel', model });
    assert.equal(pinned, true);
    const confirmation = platform.api.dialogs.asked.at(-1);
    assert.equal(confirmation?.kind, 'confirm');
    assert.match(confirmation?.detail ?? '', /canary-watch \(\S+\) is asked the 40 prompts of evals\/arith\.evalset\.jsonl \(greedy, one answer each, at most 512 tokens\), scored by exact match\./);
    assert.match(confirmation?.detail ?? '', /Budget: 40 requests per checkpoint \(40 used\), 200 per hour/);
    assert.match(confirmation?.detail ?? '', /The newest checkpoint, step 20, is evaluated now/);

    const shownPinned = await waitUntil(
      'the Models view showing the canary',
      async () => platform.api.views.models.getTreeItem(await trainingModelNode(platform.api.views.models, modelId)),
      (item) => String(item.description ?? '').includes('canary'),
    );
    assert.match(String(shownPinned.contextValue), /\bcanary\b/);
    await waitUntil(
      'the baseline (step 20) evaluated',
      () => verdicts.find((verdict) => verdict.modelId === modelId && verdict.step === 20),
      (found) => found !== undefined,
      { timeoutMs: 60_000 },
    );
    assert.equal(completions() - before, 40, 'the baseline asked its 40 prompts');

    // A team's rule acts on the drop as well.
    const rules = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, '.rlstudio', 'alerts.json');
    await vscode.workspace.fs.writeFile(rules, new TextEncoder().encode(JSON.stringify({ rules: [{ name: 'Canary fell', when: { canary: 'drop' }, do: [{ notify: 'warning' }] }] })));
    await platform.api.alerts.fileChanged(rules);

    platform.api.dialogs.answerNext(String(model.name || model.id), 'Default settings', 'Start Training');
    const job = await vscode.commands.executeCommand<{ id: string } | undefined>('rlStudio.createTrainingJob', vscode.Uri.file(join(fixtures, 'jobs', 'groups.jsonl')));
    assert.ok(job?.id, 'the job started');

    const drop = await waitUntil(
      'a canary drop told',
      () => platform.api.dialogs.shown.find((message) => /^Canary: step 2[1-4] of canary-watch scores /.test(message) && message.includes('below step 20, the best so far')),
      (found) => found !== undefined,
      { timeoutMs: 90_000 },
    );
    assert.match(drop!, /\(95 % interval of the change -0\.\d+ to -0\.\d+, 40 prompts\)/);
    const ruled = await waitUntil(
      'the alert rule on the drop',
      () => platform.api.dialogs.shown.find((message) => message.startsWith('Alert "Canary fell"')),
      (found) => found !== undefined,
    );
    assert.match(ruled!, /the canary score of model "canary-watch"'s checkpoint at model step 2[1-4] dropped to 0\.\d+, best so far 0\.\d+; paired difference -0\.\d+ to -0\.\d+\./);
    await vscode.workspace.fs.delete(rules);
    await waitUntil(
      'step 24 evaluated',
      () => verdicts.find((verdict) => verdict.modelId === modelId && verdict.step === 24),
      (found) => found !== undefined,
      { timeoutMs: 90_000 },
    );
    const evaluated = verdicts.filter((verdict) => verdict.modelId === modelId);
    assert.ok(evaluated.find((verdict) => verdict.step === 24)?.drop, 'step 24 (accuracy 0.72 against 0.92) is a drop');
    assert.ok(completions() - before <= 40 * evaluated.length, `at most 40 requests per checkpoint: ${completions() - before} for ${evaluated.length}`);

    // The results file is the evaluation report's, and the training charts carry the canary beside the reward.
    const results = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, '.rlstudio', 'evals', 'canary-canary-watch-arith.rleval.json');
    const written = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(results))) as { models: { step?: number }[] };
    assert.deepEqual(
      written.models.map((entry) => entry.step),
      evaluated.map((verdict) => verdict.step).sort((a, b) => a - b),
    );
    await vscode.commands.executeCommand('rlStudio.openModelTraining', { kind: 'trainingModel', model });
    const charts = await waitUntil(
      'the training charts with the canary',
      () => platform.api.views.runCharts.shown([modelId]),
      (shown) => shown?.runs[0]?.metrics['canary: exact match'] !== undefined,
    );
    const metricNames = Object.keys(charts!.runs[0]!.metrics);
    assert.equal(metricNames[metricNames.indexOf('reward') + 1], 'canary: exact match', `beside the reward: ${metricNames.join(', ')}`);
    assert.deepEqual(
      charts!.runs[0]!.metrics['canary: exact match']!.xs,
      written.models.map((entry) => entry.step),
    );

    assert.equal(await vscode.commands.executeCommand('rlStudio.unpinCanary', { kind: 'trainingModel', model }), true);
    assert.equal(platform.api.evals.canary.pins.get(modelId), undefined);
  });
});
