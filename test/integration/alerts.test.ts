import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { RegisteredViews } from '../../src/training/activation';
import type { LocalReceiver } from '../../src/webhooks/model/receiver';
import { signPayload } from '../../src/webhooks/model/signature';
import { seededIds, trainedModelListed } from './helpers/models';
import { connectToEmulator, type ConnectedPlatform } from './helpers/platform';
import { waitUntil } from './helpers/waitUntil';

const fixtures = join(__dirname, '../../../test/fixtures/jobs');

describe('Alert rules from .rlstudio/alerts.json on the emulator', function () {
  this.timeout(120_000);
  let platform: ConnectedPlatform;
  let receiver: LocalReceiver;
  let webhookId: string | undefined;
  const webhookName = `alerts-${Date.now()}`;
  const folder = () => vscode.workspace.workspaceFolders![0]!.uri;
  const rulesFile = () => vscode.Uri.joinPath(folder(), '.rlstudio', 'alerts.json');

  async function write(uri: vscode.Uri, value: unknown): Promise<void> {
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(typeof value === 'string' ? value : JSON.stringify(value, null, 2)));
  }

  /** A training job of the trained model from a fixture file; its id. `answers` follow the job's own. */
  async function createJobFrom(file: string, ...answers: (string | undefined)[]): Promise<string> {
    await trainedModelListed(platform);
    platform.api.dialogs.answerNext(seededIds(platform).trainedModelName, 'Default settings', 'Start Training', ...answers);
    const created = (await vscode.commands.executeCommand('rlStudio.createTrainingJob', vscode.Uri.file(join(fixtures, file)))) as { id: string } | undefined;
    assert.ok(created?.id, 'the command returns the new job');
    return created.id;
  }

  before(async () => {
    platform = await connectToEmulator({ secondsPerStep: 0.05 });
    // Jobs are polled at the pace of a visible view.
    await vscode.commands.executeCommand('rlStudio.jobs.focus');
    // Starting the receiver offers to add a webhook for it: declined, one is added with a token below.
    platform.api.dialogs.answerNext(undefined);
    receiver = await vscode.commands.executeCommand<LocalReceiver>('rlStudio.webhook.startReceiver', { secret: 'alert-secret' });
    webhookId = await vscode.commands.executeCommand<string>('rlStudio.webhook.add', {
      name: webhookName,
      url: `${receiver.url}alerts`,
      accessToken: 'alert-token',
      secretName: 'ALERT_SECRET',
      secretValue: 'alert-secret',
    });
    await write(
      vscode.Uri.joinPath(folder(), '.rlstudio', 'failed.payload.json'),
      '{"text": "${alert_rule}: ${alert_message}", "job": "${job_id}", "step": "${step}", "condition": "${alert_condition}"}',
    );
    await write(rulesFile(), {
      rules: [
        { name: 'Job failed', when: { job: 'failed' }, do: [{ webhook: webhookName, payload: '.rlstudio/failed.payload.json' }, { notify: 'error' }] },
        { name: 'Learning rate set', when: { metric: 'learning_rate', above: 0, forSteps: 2 }, do: [{ notify: 'warning' }] },
        { name: 'Nowhere', when: { job: 'finished' }, do: [{ webhook: 'no-such-webhook', payload: '.rlstudio/failed.payload.json' }] },
        { name: 'Canary regressed', when: { canary: 'drop' }, do: [{ notify: 'warning' }] },
      ],
    });
    await platform.api.alerts.ready;
    await waitUntil(
      'the rules read',
      () => platform.api.recentLogLines().join('\n'),
      (log) => /Alert rules: 4 read from \.rlstudio\/alerts\.json/.test(log),
    );
  });

  after(async () => {
    for (const name of ['alerts.json', 'failed.payload.json']) await vscode.workspace.fs.delete(vscode.Uri.joinPath(folder(), '.rlstudio', name)).then(undefined, () => undefined);
    if (webhookId) {
      platform.api.dialogs.answerNext('Remove');
      await vscode.commands.executeCommand('rlStudio.webhook.remove', webhookId);
    }
    await vscode.commands.executeCommand('rlStudio.webhook.stopReceiver');
    await platform?.disconnect();
  });

  it('shows a webhook no one set up as a warning on the rule, at its name', async () => {
    const diagnostics = await waitUntil(
      'the rules file diagnostics',
      () => vscode.languages.getDiagnostics(rulesFile()).filter((diagnostic) => diagnostic.source === 'RL Studio'),
      (found) => found.length > 0,
    );
    const document = await vscode.workspace.openTextDocument(rulesFile());
    assert.deepEqual(
      diagnostics.map((diagnostic) => [document.getText(diagnostic.range), diagnostic.severity]),
      [['"no-such-webhook"', vscode.DiagnosticSeverity.Warning]],
    );
    assert.match(diagnostics[0]!.message, /No webhook named "no-such-webhook" is set up/);
  });

  it('posts the rule payload to the local receiver, signed, when a job fails, after asking once', async () => {
    const sentBefore = receiver.requests.length;
    // A job that was over when it was followed is not news: it fires no rule.
    const { failedJobId } = seededIds(platform);
    await vscode.commands.executeCommand('rlStudio.addJob', failedJobId);
    const jobId = await createJobFrom('failing.jsonl', 'Allow and Send');
    const received = await waitUntil(
      'the alert to reach the receiver',
      () => receiver.requests.slice(sentBefore).find((request) => request.bodyText.includes(jobId)),
      (request) => request !== undefined,
      { timeoutMs: 60_000 },
    );
    assert.equal(received!.signature, 'valid');
    assert.equal(received!.headers['x-service-signature'], signPayload('alert-secret', received!.body));
    assert.equal(received!.headers.authorization, 'Bearer alert-token');
    const body = JSON.parse(received!.bodyText) as Record<string, string>;
    assert.equal(body.job, jobId);
    assert.equal(body.condition, 'a job failed');
    assert.match(body.text!, /^Job failed: training job ".+" failed at job step \d+: "Reward model crashed: CUDA out of memory"$/);
    const question = platform.api.dialogs.asked.filter((asked) => asked.kind === 'confirm').at(-1);
    assert.match(question?.message ?? '', /^Let the alert rule "Job failed" send to the webhook/);
    assert.match(question?.detail ?? '', /^Endpoint host: 127\.0\.0\.1:\d+ \(http: not encrypted\)$/m, 'the question names the host');
    assert.match(question?.detail ?? '', /^File: \.rlstudio\/alerts\.json/m);

    const told = await waitUntil(
      'the failure notification',
      () => platform.api.dialogs.shown.filter((message) => message.startsWith('Alert "Job failed"') && message.includes('failing.jsonl')),
      (messages) => messages.length > 0,
    );
    assert.equal(told.length, 1);
    assert.ok(!receiver.requests.some((request) => request.bodyText.includes(failedJobId)), 'nothing sent for the job already over');
    assert.ok(!platform.api.dialogs.shown.some((message) => message.startsWith('Alert') && message.includes(failedJobId)));
    const views = platform.api.views as unknown as RegisteredViews;
    assert.ok(views.jobService.record(jobId), 'the job is followed by the sidebar');
  });

  it('tells when a metric stays beyond its value for N steps, once per stretch', async () => {
    const jobId = await createJobFrom('groups.jsonl');
    const told = await waitUntil(
      'the metric alert',
      () => platform.api.dialogs.shown.filter((message) => message.startsWith('Alert "Learning rate set"') && message.includes('groups.jsonl')),
      (messages) => messages.length > 0,
      { timeoutMs: 60_000 },
    );
    assert.match(told[0]!, /^Alert "Learning rate set": "learning_rate" was [\d.e-]+ at job step 2 of training job ".+" \(learning_rate above 0 for 2 steps\)\.$/);
    assert.ok(
      platform.api.recentLogLines().some((line) => line.includes('Alert rule "Learning rate set" (.rlstudio/alerts.json) fired')),
      'the firing is logged',
    );
    const views = platform.api.views as unknown as RegisteredViews;
    await waitUntil(
      'the job to finish',
      () => views.jobService.record(jobId)?.status.phase,
      (phase) => phase === 'succeeded',
      { timeoutMs: 60_000 },
    );
    const all = platform.api.dialogs.shown.filter((message) => message.startsWith('Alert "Learning rate set"') && message.includes('groups.jsonl'));
    assert.equal(all.length, 1, 'the learning rate stayed above 0 the whole run: one stretch, told once');
  });

  it('runs the canary drop rules when the canary reports a drop', async () => {
    platform.api.alerts.canaryDropped({ modelId: 'agent-007', checkpointStep: 58, score: 0.61, best: 0.72, interval: [-0.15, -0.03] });
    const told = await waitUntil(
      'the canary alert',
      () => platform.api.dialogs.shown.filter((message) => message.startsWith('Alert "Canary regressed"')),
      (messages) => messages.length > 0,
    );
    assert.equal(told[0], 'Alert "Canary regressed": the canary score of model "agent-007"\'s checkpoint at model step 58 dropped to 0.61, best so far 0.72; paired difference -0.15 to -0.03.');
  });
});
