import * as assert from 'node:assert/strict';
import { appendFileSync, copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { defaultQuery } from '../../src/rollouts/model/inspectorModel';
import type { RolloutPanel } from '../../src/rollouts/host/rolloutPanel';
import { seededIds, trainedModelListed } from './helpers/models';
import { connectToEmulator, type ConnectedPlatform } from './helpers/platform';
import { waitUntil } from './helpers/waitUntil';

const fixtures = join(__dirname, '../../../test/fixtures/rollouts');

describe('Rollout inspector: the custom editor of trajectory-group files', function () {
  this.timeout(90_000);
  let platform: ConnectedPlatform;
  let folder: string;

  before(async () => {
    platform = await connectToEmulator({ secondsPerStep: 0.05 });
    folder = mkdtempSync(join(tmpdir(), 'rl-studio-rollouts-'));
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await platform?.disconnect();
    rmSync(folder, { recursive: true, force: true });
  });

  /** A copy of a fixture in a folder of the test's own, so the test may change it. */
  function copyOf(name: string, as = name): vscode.Uri {
    const path = join(folder, as);
    copyFileSync(join(fixtures, name), path);
    return vscode.Uri.file(path);
  }

  /** The inspector's page of a file once the file is read whole. */
  async function inspected(uri: vscode.Uri, groups: number): Promise<RolloutPanel> {
    return waitUntil(
      `${uri.fsPath} read in the inspector (${groups} groups)`,
      () => [...platform.api.rollouts.panels].find((panel) => panel.document.uri.toString() === uri.toString()),
      (panel) => panel !== undefined && !panel.document.file.state().reading && panel.document.file.state().statistics.groups === groups,
    ) as Promise<RolloutPanel>;
  }

  it('opens a *.trajectories.jsonl file in the inspector by default, with its flags and problems', async () => {
    const uri = copyOf('flags.trajectories.jsonl');
    await vscode.commands.executeCommand('vscode.open', uri);
    const panel = await inspected(uri, 7);
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    assert.ok(tab instanceof vscode.TabInputCustom && tab.viewType === 'rlStudio.rollouts', 'the file opened in the inspector');
    const state = panel.document.file.state();
    assert.equal(state.statistics.trajectories, 13);
    assert.deepEqual([...new Set(state.problems.map((problem) => problem.line))], [6, 7], 'the line that is not JSON and the group of the wrong shape are problems, with their lines');
    assert.ok(state.problems.some((problem) => problem.line === 6 && /JSON/.test(problem.message)));
    assert.ok(state.problems.some((problem) => problem.line === 7 && /reward/.test(problem.message)));
    const truncated = await panel.document.file.rows({ ...defaultQuery, filter: { ...defaultQuery.filter, flags: ['truncated'] } }, 0, 50);
    assert.deepEqual(
      truncated.rows.map((row) => row.metadata.case),
      ['truncated'],
    );
  });

  it('opens any .jsonl with "Open in Rollout Inspector", and "Open as Text" goes back to the text', async () => {
    const uri = copyOf('flags.trajectories.jsonl', 'run.jsonl');
    await vscode.commands.executeCommand('rlStudio.openRolloutInspector', uri);
    await inspected(uri, 7);
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    assert.ok(tab instanceof vscode.TabInputCustom && tab.viewType === 'rlStudio.rollouts.openWith');
    await vscode.commands.executeCommand('rlStudio.openRolloutsAsText');
    await waitUntil(
      'the text editor of the file',
      () => vscode.window.activeTextEditor?.document.uri.toString(),
      (shown) => shown === uri.toString(),
    );
  });

  it('follows a file that grows: appended groups are read without reading the file again', async () => {
    const uri = copyOf('flags.trajectories.jsonl', 'growing.trajectories.jsonl');
    await vscode.commands.executeCommand('vscode.open', uri);
    const panel = await inspected(uri, 7);
    const before = panel.document.file.state().version;
    const problemsBefore = panel.document.file.state().problems.length;
    const line = readFileSync(join(fixtures, 'flags.trajectories.jsonl'), 'utf8').split('\n')[0]!;
    appendFileSync(uri.fsPath, `${line.replace('"no-signal"', '"appended"')}\n`);
    await inspected(uri, 8);
    const state = panel.document.file.state();
    assert.ok(state.version > before);
    assert.equal(state.problems.length, problemsBefore, 'the problems found before are still listed once');
    const appended = await panel.document.file.rows({ ...defaultQuery, filter: { ...defaultQuery.filter, metadata: [{ key: 'case', value: 'appended' }] } }, 0, 10);
    assert.deepEqual(
      appended.rows.map((row) => row.index),
      [7],
    );
  });

  it('creates a training job from the groups picked in the inspector', async () => {
    const uri = copyOf('flags.trajectories.jsonl', 'train.trajectories.jsonl');
    await vscode.commands.executeCommand('vscode.open', uri);
    const panel = await inspected(uri, 7);
    await trainedModelListed(platform);
    platform.api.dialogs.answerNext(seededIds(platform).trainedModelName, 'Default settings', 'Start Training');
    const created = await panel.actions.createJob({ kind: 'selected', indices: [1, 3] });
    assert.ok(created, 'a job was created');
    const job = platform.api.views.jobService.jobs().find((remembered) => remembered.id === created.id);
    assert.equal(job?.label, `train.trajectories.jsonl (2 groups) → ${seededIds(platform).trainedModelName}`);
  });

  it('confirms the picked groups by number, and sends nothing when the file changed after the confirmation', async () => {
    const uri = copyOf('flags.trajectories.jsonl', 'rewritten.trajectories.jsonl');
    await vscode.commands.executeCommand('vscode.open', uri);
    const panel = await inspected(uri, 7);
    await trainedModelListed(platform);
    const jobPosts = () => platform.emulator.requests.filter((request) => request.method === 'POST' && request.path.endsWith('/preview/training-jobs')).length;
    const before = jobPosts();
    let detail = '';
    platform.api.dialogs.answerNext(seededIds(platform).trainedModelName, 'Default settings', (question) => {
      detail = question.detail ?? '';
      // The picked groups are swapped on disk while the confirmation is open.
      const lines = readFileSync(uri.fsPath, 'utf8').split('\n');
      [lines[1], lines[3]] = [lines[3]!, lines[1]!];
      writeFileSync(uri.fsPath, lines.join('\n'));
      return 'Start Training';
    });
    assert.equal(await panel.actions.createJob({ kind: 'selected', indices: [1, 3] }), undefined);
    assert.equal(jobPosts(), before, 'nothing was sent');
    assert.match(detail, /^Groups of the file \(numbered from 1\): 2, 4$/m);
    assert.match(detail, /^2 trajectory groups, \d+ trajectories\.$/m);
    assert.equal(platform.api.dialogs.shown.at(-1), 'rewritten.trajectories.jsonl changed after you confirmed; nothing was sent. Run the command again to send it as it is now.');
  });

  it('exports the groups that match a filter to a new file, as they are in the file', async () => {
    const uri = copyOf('flags.trajectories.jsonl', 'export.trajectories.jsonl');
    await vscode.commands.executeCommand('vscode.open', uri);
    const panel = await inspected(uri, 7);
    const target = join(folder, 'exported.trajectories.jsonl');
    platform.api.dialogs.answerNext(target);
    await panel.actions.exportGroups({ kind: 'matching', query: { ...defaultQuery, filter: { ...defaultQuery.filter, flags: ['exceptions'] } } });
    const source = readFileSync(uri.fsPath, 'utf8').split('\n');
    assert.equal(readFileSync(target, 'utf8'), `${source[2]}\n`);
  });
});
