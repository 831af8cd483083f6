import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { EvalRunFile } from '../../src/evals/model/evalModel';
import { parseRunFile, serializeRunFile } from '../../src/evals/model/resultsFile';
import type { EvalReportPanel } from '../../src/evals/host/evalReportEditor';
import type { ProvenanceView } from '../../src/evals/protocol';
import { checkpointNode, evaluateSteps, seededIds, trainedModelListed, trainedModelName } from './helpers/models';
import { connectToEmulator, type ConnectedPlatform } from './helpers/platform';
import { waitUntil } from './helpers/waitUntil';

describe('Promotion: a checkpoint used in the chat and the model picker', function () {
  this.timeout(90_000);
  let platform: ConnectedPlatform;

  before(async () => {
    platform = await connectToEmulator({ secondsPerStep: 0.05 });
  });

  after(async () => {
    await platform?.disconnect();
  });

  it("pins a checkpoint: first in VS Code's model picker (answering through the training API), the chat's default, its id on the clipboard", async () => {
    const ids = seededIds(platform);
    await trainedModelListed(platform);
    const node = await checkpointNode(platform.api.views.models, ids.trainedModelId, 0);
    const modelId = `wandb-artifact:///${trainedModelName(ids)}:step0`;
    await vscode.commands.executeCommand('rlStudio.useInChat', node);

    assert.equal(await vscode.env.clipboard.readText(), modelId);
    assert.equal(platform.api.storedState()['global:rlStudio.chat.lastModel'], modelId, 'new chats start with it');
    const offered = await waitUntil(
      'the pinned checkpoint in the model picker',
      async () => vscode.lm.selectChatModels({ vendor: 'rl-studio' }),
      (list) => list.some((model) => model.id === modelId),
      { timeoutMs: 20_000 },
    );
    const pinned = offered.find((model) => model.id === modelId)!;
    const before = platform.emulator.requests.length;
    const response = await pinned.sendRequest([vscode.LanguageModelChatMessage.User('/echo from the pinned step')], {}, new vscode.CancellationTokenSource().token);
    let text = '';
    for await (const part of response.text) text += part;
    assert.equal(text, 'from the pinned step');
    const sent = platform.emulator.requests.slice(before).filter((request) => request.path.endsWith('/chat/completions'));
    assert.deepEqual(
      sent.map((request) => request.path),
      ['/training/v1/chat/completions'],
      'answered by the training API, not the inference API (/inference/v1)',
    );
  });
});

describe('Pruning from an evaluation report: only what it scored below the chosen step, of a model RL Studio knows', function () {
  this.timeout(120_000);
  let platform: ConnectedPlatform;
  let folder: vscode.Uri;
  const fixture = join(__dirname, '../../../test/fixtures/evals/arith.evalset.jsonl');

  before(async () => {
    platform = await connectToEmulator({ secondsPerStep: 0.05 });
    folder = vscode.workspace.workspaceFolders![0]!.uri;
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(folder, 'evals'));
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(folder, 'evals', 'prune.evalset.jsonl'), await vscode.workspace.fs.readFile(vscode.Uri.file(fixture)));
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await platform?.disconnect();
  });

  function evaluate(steps: number[]): Promise<EvalRunFile> {
    return evaluateSteps(platform, steps, 'evals/prune.evalset.jsonl');
  }

  function reportOf(uri: vscode.Uri): Promise<EvalReportPanel> {
    return waitUntil(
      `the report of ${uri.path}`,
      async () => [...platform.api.evals.report.panels].find((panel) => panel.uri.toString() === uri.toString()),
      (found): found is EvalReportPanel => found !== undefined,
    ) as Promise<EvalReportPanel>;
  }

  function provenanceOf(report: EvalReportPanel): Promise<ProvenanceView> {
    return waitUntil(
      'where the answers came from',
      async () => [...report.emitted].reverse().find((event) => event.type === 'provenance'),
      (event) => event !== undefined,
    ).then((event) => (event as { provenance: ProvenanceView }).provenance);
  }

  it('an open report is drawn again when a run adds a model, and the run over leaves no progress or Cancel behind', async () => {
    await evaluate([10, 20]);
    const report = await reportOf(vscode.Uri.joinPath(folder, '.rlstudio', 'evals', 'prune.rleval.json'));
    const before = report.emitted.length;
    const run = await evaluate([10, 20, 24]);
    const snapshots = () => report.emitted.slice(before).filter((event): event is Extract<typeof event, { type: 'snapshot' }> => event.type === 'snapshot');
    const last = await waitUntil(
      'the report drawn again with the run as written',
      async () => snapshots().at(-1)?.snapshot,
      (snapshot) => snapshot !== undefined && snapshot.answerCount === run.answers.length && snapshot.progress === undefined,
    );
    assert.deepEqual(
      last!.run.models.map((model) => model.label),
      run.models.map((model) => model.label),
    );
    assert.ok(
      last!.run.models.some((model) => model.step === 24),
      'the step the run added is drawn',
    );
  });

  const deletes = () => platform.emulator.requests.filter((request) => request.method === 'DELETE' && request.path.endsWith('/checkpoints'));

  it('keeps step 20 and deletes only the steps scored below it (10, and 24 once it is not the latest), never a step it did not score, naming the model and every step, then marks them deleted', async () => {
    const ids = seededIds(platform);
    const run = await evaluate([10, 20, 24]);
    const idOf = (step: number) => run.models.find((model) => model.step === step)!.id;
    const report = await reportOf(vscode.Uri.joinPath(folder, '.rlstudio', 'evals', 'prune.rleval.json'));
    const snapshot = await report.request('ready', {});
    assert.equal(snapshot.answerCount, run.answers.length);
    assert.equal(snapshot.leaderboard[0]!.step, 20, 'step 20 leads');
    assert.deepEqual(await provenanceOf(report), { total: run.answers.length, producedHere: run.answers.length, fromFile: 0 });

    const asked = platform.api.dialogs.asked.length;
    platform.api.dialogs.answerNext(true);
    await report.request('deleteOthers', { keep: idOf(20) });
    const question = platform.api.dialogs.asked[asked]!;
    assert.equal(question.kind, 'confirm', 'no re-score offer: every answer was produced here');
    // The seeded model keeps training while the test runs: steps past 24 appear after the evaluation, and stay.
    const words = new RegExp(
      `^Delete (?:1 checkpoint|2 checkpoints) of model "${ids.trainedModelName}" \\(id ${ids.trainedModelId}\\): steps? (10|10, 24)\\. ` +
        `Steps 20 \\(chosen, best\\), (\\d+) \\(latest\\) stay\\. Also kept: \\d+ checkpoints this evaluation did not score(?: \\((\\d+) of them made after it\\))?\\. This cannot be undone\\.$`,
    ).exec(question.detail ?? '');
    assert.ok(words, question.detail);
    const doomed = words[1]!.split(', ').map(Number);
    assert.equal(doomed.includes(24), Number(words[2]) > 24, 'step 24 goes only when it is no longer the latest');
    assert.deepEqual(
      deletes().map((request) => JSON.parse(request.body) as unknown),
      [{ steps: doomed }],
      'exactly the steps confirmed, none the evaluation did not score',
    );
    const gone = await waitUntil(
      'the report told the deleted steps are gone',
      async () => [...report.emitted].reverse().find((event) => event.type === 'checkpoints'),
      (event) => event !== undefined,
    );
    assert.deepEqual((gone as { gone: string[] }).gone, doomed.map(idOf));
    assert.deepEqual((await report.request('ready', {})).gone, doomed.map(idOf));
    await assert.rejects(report.request('useModel', { model: idOf(10) }), /deleted/);
    await assert.rejects(report.request('deleteOthers', { keep: idOf(10) }), /deleted/);
  });

  it('a results file from elsewhere (read on a worker thread): says its answers came with it, offers to re-score before promoting, and refuses a model RL Studio does not know', async () => {
    const written = parseRunFile(new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folder, '.rlstudio', 'evals', 'prune.rleval.json'))));
    assert.ok(written.ok);
    // Long answers make the file larger than what is read on the host's thread.
    const padded: EvalRunFile = { ...written.run, answers: written.run.answers.map((answer, at) => (at < 3 ? { ...answer, text: `${answer.text ?? ''}${' '.repeat(120_000)}` } : answer)) };
    const foreignUri = vscode.Uri.joinPath(folder, '.rlstudio', 'evals', 'foreign.rleval.json');
    await vscode.workspace.fs.writeFile(foreignUri, new TextEncoder().encode(serializeRunFile(padded)));
    await vscode.commands.executeCommand('vscode.openWith', foreignUri, 'rlStudio.evalReport');
    const report = await reportOf(foreignUri);
    const snapshot = await report.request('ready', {});
    assert.equal(snapshot.answerCount, padded.answers.length);
    assert.deepEqual(await provenanceOf(report), { total: padded.answers.length, producedHere: 0, fromFile: padded.answers.length });

    await vscode.env.clipboard.writeText('untouched');
    const asked = platform.api.dialogs.asked.length;
    platform.api.dialogs.answerNext(undefined);
    const step20 = padded.models.find((model) => model.step === 20)!.id;
    await report.request('useModel', { model: step20 });
    const offer = platform.api.dialogs.asked[asked]!;
    assert.equal(offer.message, `${padded.answers.length} of ${padded.answers.length} answers of this leaderboard came with the file: they were not produced on this machine.`);
    assert.deepEqual(offer.choices, ['Re-score first', 'Continue anyway']);
    assert.equal(await vscode.env.clipboard.readText(), 'untouched', 'cancelled: nothing promoted');

    // The same leaderboard, naming a training model nobody added to RL Studio.
    const stranger = 'wandb-artifact:///someone/else/their-model';
    const renamed = (id: string) => id.replace(seededIds(platform).trainedModelId, stranger);
    const unknown: EvalRunFile = {
      ...written.run,
      models: written.run.models.map((model) => (model.trainingModelId ? { ...model, id: renamed(model.id), trainingModelId: stranger } : model)),
      answers: written.run.answers.map((answer) => ({ ...answer, model: renamed(answer.model) })),
    };
    const unknownUri = vscode.Uri.joinPath(folder, '.rlstudio', 'evals', 'unknown.rleval.json');
    await vscode.workspace.fs.writeFile(unknownUri, new TextEncoder().encode(serializeRunFile(unknown)));
    await vscode.commands.executeCommand('vscode.openWith', unknownUri, 'rlStudio.evalReport');
    const strangers = await reportOf(unknownUri);
    await strangers.request('ready', {});
    await provenanceOf(strangers);
    const deletesBefore = deletes().length;
    platform.api.dialogs.answerNext('Continue anyway');
    await strangers.request('deleteOthers', { keep: renamed(step20) });
    assert.match(
      platform.api.dialogs.shown.at(-1) ?? '',
      /^Nothing was deleted: the results file names the model "wandb-artifact:\/\/\/someone\/else\/their-model", which is not in RL Studio's Models view/,
    );
    assert.equal(deletes().length, deletesBefore, 'no delete request');
  });
});
