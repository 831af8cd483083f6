import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { EvalRunFile } from '../../src/evals/model/evalModel';
import { parseRunFile } from '../../src/evals/model/resultsFile';
import { leaderboard } from '../../src/evals/model/statistics';
import { checkpointNode, evaluateSteps, seededIds, trainedModelListed } from './helpers/models';
import { connectToEmulator, type ConnectedPlatform } from './helpers/platform';
import { waitUntil } from './helpers/waitUntil';

const fixture = join(__dirname, '../../../test/fixtures/evals/arith.evalset.jsonl');

describe('Evaluate Checkpoints: an eval set against checkpoints, with a results file that caches', function () {
  this.timeout(120_000);
  let platform: ConnectedPlatform;
  let setUri: vscode.Uri;

  before(async () => {
    platform = await connectToEmulator({ secondsPerStep: 0.05 });
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    assert.ok(folder, 'the tests run in a workspace folder');
    setUri = vscode.Uri.joinPath(folder, 'evals', 'arith.evalset.jsonl');
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(folder, 'evals'));
    await vscode.workspace.fs.writeFile(setUri, await vscode.workspace.fs.readFile(vscode.Uri.file(fixture)));
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await platform?.disconnect();
  });

  function evaluate(steps: number[]): Promise<EvalRunFile> {
    return evaluateSteps(platform, steps, vscode.workspace.asRelativePath(setUri));
  }

  it('ranks the steps by their answers (step 20 ahead of 10 and 24), writes the results file, and asks nothing again on a re-run', async () => {
    const run = await evaluate([10, 20, 24]);
    assert.equal(run.answers.filter((answer) => answer.error !== undefined).length, 0, 'no answer failed');
    const board = leaderboard(run, run.scorers[0]!.name);
    assert.equal(board[0]?.step, 20, `the leader: ${JSON.stringify(board.map((row) => [row.label, row.mean]))}`);
    const written = parseRunFile(
      new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, '.rlstudio', 'evals', 'arith.rleval.json'))),
    );
    assert.ok(written.ok);
    assert.equal(written.run.answers.length, run.answers.length);

    const before = platform.emulator.requests.filter((request) => request.path.endsWith('/chat/completions')).length;
    await evaluate([10, 20, 24]);
    const after = platform.emulator.requests.filter((request) => request.path.endsWith('/chat/completions')).length;
    assert.equal(after - before, 0, 'every answer came from the results file');
  });

  it('scores against a JSON Schema file picked in the dialog, and says when answers failed once the run ends', async () => {
    const folder = vscode.workspace.workspaceFolders![0]!.uri;
    const schemaUri = vscode.Uri.joinPath(folder, 'answer.schema.json');
    await vscode.workspace.fs.writeFile(schemaUri, new TextEncoder().encode('{"type": "object", "required": ["answer"]}'));
    const ids = seededIds(platform);
    await trainedModelListed(platform);
    const node = await checkpointNode(platform.api.views.models, ids.trainedModelId, 16);
    // Three answers refused by the platform, for good (a 400 is not retried).
    platform.emulator.addFault({ kind: 'status', status: 400, method: 'POST', path: '/training/v1/chat/completions', times: 3 });
    const shownBefore = platform.api.dialogs.shown.length;
    platform.api.dialogs.answerNext(vscode.workspace.asRelativePath(setUri), 'JSON Schema…', schemaUri.fsPath, 'Base model (step 0)', 'Sampled');
    const run = (await vscode.commands.executeCommand('rlStudio.evaluateCheckpoints', node, [node])) as EvalRunFile | undefined;
    assert.ok(run, 'the evaluation ran');
    assert.deepEqual(run.scorers, [{ name: 'schema answer.schema.json', spec: { kind: 'jsonSchema', schema: { type: 'object', required: ['answer'] } } }]);
    const failed = run.answers.filter((answer) => answer.error !== undefined).length;
    assert.equal(failed, 3);
    assert.ok(
      run.answers.some((answer) => answer.scores['schema answer.schema.json'] === 0),
      'plain-text answers do not satisfy the schema',
    );
    const said = platform.api.dialogs.shown.slice(shownBefore).find((message) => message.includes('answers failed'));
    assert.match(said ?? '', new RegExp(`^3 of ${run.answers.length} answers failed, for example: ".+"\\. The report lists them; Retry there asks them again\\.$`));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.fs.delete(schemaUri);
  });

  it('a report whose results file names an eval set outside the workspace reads nothing there and says so', async () => {
    const folder = vscode.workspace.workspaceFolders![0]!.uri;
    const uri = vscode.Uri.joinPath(folder, '.rlstudio', 'evals', 'outside.rleval.json');
    const file = {
      kind: 'rl-studio-eval',
      version: 1,
      set: { path: '../outside.evalset.jsonl', hash: 'x', samples: 1 },
      scorers: [{ name: 'exact', spec: { kind: 'exactMatch' } }],
      parameters: { temperature: 0, seed: 0, n: 1, maxTokens: 512 },
      models: [],
      answers: [],
      createdAt: '',
      updatedAt: '',
    };
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(JSON.stringify(file)));
    await vscode.commands.executeCommand('vscode.openWith', uri, 'rlStudio.evalReport');
    await waitUntil(
      'the report to say the set path leaves the workspace',
      () => platform.api.dialogs.shown,
      (shown) => shown.some((message) => message.includes('outside.rleval.json: The eval set path "../outside.evalset.jsonl" points outside the workspace folder; nothing was read.')),
    );
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.fs.delete(uri);
  });

  it('a command scorer chosen in the dialog runs in the workspace folder: the person chose it in this window', async function () {
    if (process.platform === 'win32') this.skip();
    const folder = vscode.workspace.workspaceFolders![0]!.uri;
    const marker = vscode.Uri.joinPath(folder, 'scored-by-dialog-command');
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(folder, 'score.sh'), new TextEncoder().encode('cat > /dev/null\ntouch scored-by-dialog-command\necho 1\n'));
    const ids = seededIds(platform);
    await trainedModelListed(platform);
    const node = await checkpointNode(platform.api.views.models, ids.trainedModelId, 20);
    platform.api.dialogs.answerNext(vscode.workspace.asRelativePath(setUri), 'Command…', '/bin/sh score.sh', 'Base model (step 0)', 'Deterministic');
    const run = (await vscode.commands.executeCommand('rlStudio.evaluateCheckpoints', node, [node])) as EvalRunFile | undefined;
    assert.ok(run, 'the evaluation ran');
    assert.deepEqual(
      run.scorers.map((scorer) => scorer.spec),
      [{ kind: 'command', command: '/bin/sh', args: ['score.sh'] }],
    );
    assert.ok(
      run.answers.every((answer) => answer.error !== undefined || answer.scores['command /bin/sh'] === 1),
      JSON.stringify(run.answers.map((answer) => answer.scores)),
    );
    await vscode.workspace.fs.stat(marker);
    await vscode.workspace.fs.delete(marker);
    await vscode.workspace.fs.delete(vscode.Uri.joinPath(folder, 'score.sh'));
  });
});
