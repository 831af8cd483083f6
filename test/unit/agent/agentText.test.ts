import assert from 'node:assert/strict';
import { agentInstructions, jobNamedIn, pathNamedIn, toolTextAsMarkdown } from '../../../src/agent/model/chatTargets';
import { describeLeaderboard } from '../../../src/evals/model/leaderboardText';
import { describeJobs, describeModels, describePlatformStatus } from '../../../src/platform/agent/platformText';
import { capText } from '../../../src/platform/agent/textCap';
import { describeTrajectoryCheck } from '../../../src/training/model/trajectoryCheckText';
import { escapeMarkdown } from '../../../src/platform/kit/markdownText';

describe('agent text', () => {
  it('cuts long results at a line end and says how much is left out', () => {
    const text = Array.from({ length: 1000 }, (_, index) => `line ${index}`).join('\n');
    const cut = capText(text, 500);
    assert.ok(cut.length <= 500, `${cut.length}`);
    assert.match(cut, /\n… cut: \d+ more characters \(\d+ lines\) not shown\.$/);
    assert.match(cut.split('\n').at(-2)!, /^line \d+$/, 'the last kept line is whole');
    assert.equal(capText('short', 500), 'short');
  });

  it('lists models with their newest checkpoints and metrics, and the catalogue', () => {
    const model = { id: 'm-1', entity: 'team', project: 'p', name: 'agent-001', base_model: 'Qwen/Qwen3-8B' };
    const text = describeModels(
      [
        { model, checkpoints: [{ id: 'c', step: 40, metrics: { reward: 0.61234, loss: 1.5, step: 40 } }], moreCheckpoints: true },
        { model: { ...model, id: 'm-2', name: '' }, problem: 'the training API answered 404' },
      ],
      { ids: ['a', 'b'], more: 3 },
    );
    assert.equal(
      text,
      [
        'Training models (2):',
        '- "agent-001" · id m-1 · project team/p · base Qwen/Qwen3-8B',
        '  checkpoints (newest first, more exist):',
        '  - step 40 · reward 0.612, loss 1.5',
        '- (no name) · id m-2 · project team/p · base Qwen/Qwen3-8B',
        '  checkpoints: could not be listed: the training API answered 404',
        'Inference catalogue (5): a, b, and 3 more',
      ].join('\n'),
    );
  });

  it('lists followed jobs with their state, error and what was not listed', () => {
    const text = describeJobs(
      [
        { id: 'j1', kind: 'rl', addedAt: '2026-01-01', label: 'batch.jsonl → agent', record: { id: 'j1', status: 'failed', error_message: 'CUDA out of memory\nat step 3' } },
        { id: 'j2', addedAt: 'x', problem: 'no answer' },
      ],
      4,
    );
    assert.equal(
      text,
      [
        'Followed training jobs (6, newest first):',
        '- job j1 · RL · failed · "batch.jsonl → agent" · error: "CUDA out of memory\\nat step 3"',
        '- job j2 · RL · status unknown: no answer',
        '… and 4 older jobs not listed.',
      ].join('\n'),
    );
    assert.match(describeJobs([], 0), /none/);
  });

  it('says whether each API answers, and never more than that the key is stored', () => {
    const text = describePlatformStatus({
      trainingUrl: 'https://t',
      inferenceUrl: 'https://i',
      signedIn: true,
      training: { ok: true, ms: 12.4, detail: 'system check passed' },
      inference: { ok: false, problem: 'the inference API refused the connection' },
    });
    assert.match(text, /Training API check: answers \(12 ms\); system check passed/);
    assert.match(text, /Inference API check: the inference API refused the connection/);
    assert.match(text, /Signed in: yes/);
  });

  it("words a trajectory file's check with one-based lines", () => {
    const groups = [
      {
        trajectories: [
          { messages_and_choices: [], reward: 1 },
          { messages_and_choices: [], reward: 0 },
        ],
      },
    ];
    assert.equal(
      describeTrajectoryCheck('a.jsonl', { ok: true, groups, problems: [] } as never),
      '"a.jsonl" can be sent: 1 trajectory groups, 2 trajectories.\nRewards: mean 0.5, min 0, max 1 over 2 trajectories.',
    );
    const broken = describeTrajectoryCheck('b.jsonl', {
      ok: false,
      groups: [],
      problems: [
        { line: 2, column: 4, endLine: 2, endColumn: 5, message: 'reward must be a number', severity: 'error' },
        { line: 0, column: 0, endLine: 0, endColumn: 0, message: '', severity: 'error', notListed: 7 },
      ],
    } as never);
    assert.match(broken, /^"b\.jsonl" cannot be sent as it is: 8 errors must be fixed first\./);
    assert.match(broken, /- line 3, column 5: error: reward must be a number/);
    assert.match(broken, /- … 7 more errors/);
  });

  it('ranks a leaderboard and says whether the lead is clear', () => {
    const rows = [
      { model: 'm:20', label: 'step 20', step: 20, mean: 0.93, low: 0.86, high: 0.97, scored: 100, failed: 0 },
      { model: 'm:22', label: 'step 22', step: 22, mean: 0.84, low: 0.76, high: 0.9, scored: 100, failed: 2 },
    ];
    const text = describeLeaderboard(rows, 'exact match', '.rlstudio/evals/a.rleval.json');
    assert.match(text, /^1\. step 20: 0\.930 \[0\.860, 0\.970\] over 100 answers · model id m:20$/m);
    assert.match(text, /^2\. step 22: 0\.840 \[0\.760, 0\.900\] over 100 answers, 2 failed/m);
    assert.match(text, /overlaps that of step 22: more samples would be needed/);
  });

  it('finds the job and the file a prompt names', () => {
    const ids = ['4f2a91c3-aaaa-bbbb', '77aa0000-cccc'];
    assert.equal(jobNamedIn('why did 77aa0000-cccc fail?', ids), '77aa0000-cccc');
    assert.equal(jobNamedIn('explain 4f2a91c3 please', ids), '4f2a91c3-aaaa-bbbb', 'the short id the views show');
    assert.equal(jobNamedIn('explain my job', ids), undefined);
    assert.equal(pathNamedIn('summarise rollouts/batch-7.jsonl.', ['.jsonl']), 'rollouts/batch-7.jsonl');
    assert.equal(pathNamedIn('no file here', ['.jsonl']), undefined);
    assert.equal(jobNamedIn('x'.repeat(1_000_000), ids), undefined, 'a huge prompt is searched within its first 10,000 characters');
  });

  it('shows tool text as Markdown that cannot add links or formatting, lists kept', () => {
    const markdown = toolTextAsMarkdown('Jobs:\n- job [x](https://evil) · failed\n  - step 4 · **bold**', escapeMarkdown);
    assert.equal(markdown, 'Jobs\\:  \n- job \\[x\\]\\(https\\:\\/\\/evil\\) · failed\n  - step 4 · \\*\\*bold\\*\\*');
    assert.match(agentInstructions, /Never ask for or repeat API keys/);
  });
});
