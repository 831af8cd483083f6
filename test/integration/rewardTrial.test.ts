import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { RewardTrialPanel } from '../../src/rollouts/host/rewardTrialPanel';
import type { Question } from '../../src/platform/host/dialogs';
import { activateExtension } from './helpers/extension';
import { connectToEmulator } from './helpers/platform';
import { waitUntil } from './helpers/waitUntil';

/** A trajectory answering `answer` with the old reward `reward`, its reference "4" in its metadata. */
function answered(answer: string, reward: number): unknown {
  return {
    messages_and_choices: [
      { role: 'user', content: 'What is 2 + 2?' },
      { index: 0, finish_reason: 'stop', message: { role: 'assistant', content: answer } },
    ],
    reward,
    metadata: { answer: '4' },
  };
}

describe('Try a Reward: re-scoring a trajectory file', function () {
  this.timeout(60_000);
  let folder: string;

  before(() => {
    folder = mkdtempSync(join(tmpdir(), 'rl-studio-reward-'));
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(folder, { recursive: true, force: true });
  });

  it('scores the file by exact match against a metadata key and shows the comparison in its page', async () => {
    const api = await activateExtension();
    const path = join(folder, 'step-1.trajectories.jsonl');
    const groups = [
      // No signal before, signal after.
      { trajectories: [answered('4', 0.5), answered('5', 0.5)] },
      // The same order under both rewards.
      { trajectories: [answered('4', 1), answered('3', 0)] },
    ];
    writeFileSync(path, `${groups.map((group) => JSON.stringify(group)).join('\n')}\n`);
    api.dialogs.answerNext('Exact match', 'answer');
    await vscode.commands.executeCommand('rlStudio.tryReward', vscode.Uri.file(path));
    const trial = (await waitUntil(
      'the reward trial page loaded',
      () => [...api.rollouts.rewardTrials].find((panel) => panel.view.fileName === 'step-1.trajectories.jsonl'),
      (panel) => panel !== undefined && panel.deliveries > 0,
    )) as RewardTrialPanel;
    const { totals, groups: compared } = trial.view.result;
    assert.equal(trial.view.reward, 'exact match against metadata.answer');
    assert.equal(totals.trajectories, 4);
    assert.equal(totals.signalBefore, 1);
    assert.equal(totals.signalAfter, 2);
    assert.equal(totals.gainedSignal, 1);
    assert.deepEqual(
      compared.map((group) => group.index),
      [0, 1],
      'the group that gains its signal comes first',
    );
    // A group of the trial opens in the inspector at that group (found by its line).
    const uri = vscode.Uri.file(path);
    await api.rollouts.revealGroup(uri, 'rlStudio.rollouts', compared[1]!.line);
    await waitUntil(
      'the inspector opened at the second group',
      () => [...api.rollouts.panels].find((panel) => panel.document.uri.toString() === uri.toString())?.revealed,
      (revealed) => revealed === 1,
    );
  });

  it('asks before a judge grades anything, naming the model, the requests at most and the address; declined, nothing is scored', async () => {
    const api = await activateExtension();
    const path = join(folder, 'judged.trajectories.jsonl');
    writeFileSync(path, `${JSON.stringify({ trajectories: [answered('4', 1), answered('5', 0)] })}\n`);
    const before = api.rollouts.rewardTrials.size;
    let asked: Question | undefined;
    api.dialogs.answerNext('LLM judge…', '(no reference)', 'judge-model\nline two', 'Is it right?', (question) => {
      asked = question;
      return false;
    });
    await vscode.commands.executeCommand('rlStudio.tryReward', vscode.Uri.file(path));
    assert.equal(asked?.kind, 'confirm');
    assert.match(asked?.message ?? '', /Grade up to 2,000 answers with "judge-model\\nline two"\?/);
    assert.match(asked?.detail ?? '', /at most 2,000/);
    assert.match(asked?.detail ?? '', /Inference API/);
    assert.equal(api.rollouts.rewardTrials.size, before, 'no comparison was made');
  });

  it('a confirmed judge sends one request per answer to the inference API, and its verdicts are the new rewards', async () => {
    const platform = await connectToEmulator();
    try {
      const api = platform.api;
      const path = join(folder, 'judged-for-real.trajectories.jsonl');
      const groups = [{ trajectories: [answered('4', 1), answered('5', 0)] }, { trajectories: [answered('4', 0.5), answered('four', 0.5)] }];
      writeFileSync(path, `${groups.map((group) => JSON.stringify(group)).join('\n')}\n`);
      const judged = () => platform.emulator.requests.filter((request) => request.path === '/inference/v1/chat/completions').length;
      const before = judged();
      api.dialogs.answerNext('LLM judge…', 'answer', 'OpenPipe/Qwen3-14B-Instruct', 'Is the answer correct?', true);
      await vscode.commands.executeCommand('rlStudio.tryReward', vscode.Uri.file(path));
      const trial = (await waitUntil(
        'the judged trial',
        () => [...api.rollouts.rewardTrials].find((panel) => panel.view.fileName === 'judged-for-real.trajectories.jsonl'),
        (panel) => panel !== undefined,
      )) as RewardTrialPanel;
      assert.equal(judged() - before, 4, 'one request per answer');
      const { totals } = trial.view.result;
      assert.equal(totals.trajectories, 4);
      // Each answer has its verdict, or the reason it has none (a reply without a "Score:" line).
      assert.equal(totals.compared + totals.notScored, 4);
      assert.match(trial.view.reward, /^LLM judge OpenPipe\/Qwen3-14B-Instruct with metadata\.answer$/);
    } finally {
      await platform.disconnect();
    }
  });
});
