/**
 * A repository's files and a server's names are written by somebody else: a confirmation must name
 * exactly what happens however they are built, and the action must send exactly what was
 * confirmed. Here: trajectory and payload files rewritten, deleted or left stale in the editor
 * between the confirmation and the action (through FileSnapshot, in the Node stand-in of VS Code),
 * and hostile addresses, file names, model names and step lists in the confirmations' words.
 */
import { strict as assert } from 'node:assert';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { endpointSecrets } from '../../src/webhooks/model/endpoint';
import { sendTestConfirmation } from '../../src/webhooks/model/testConfirmation';
import { deleteCheckpointsConfirmation, deleteModelConfirmation, logConfirmation, sftConfirmation, trainingConfirmation } from '../../src/training/model/trainingConfirmations';
import { FakeHost, manifestDefaults, useHost } from './support/trustHost';

interface FakeUri {
  fsPath: string;
  toString(): string;
}
interface FakeDocument {
  uri: FakeUri;
  isDirty: boolean;
  text: string;
  getText(): string;
}

const group = JSON.stringify({ trajectories: [{ messages_and_choices: [{ role: 'user', content: 'hi' }], reward: 1 }] });
const model = { id: '3f1c9a52-7d0e-4a8b-9c61-2b5e8f0d4a17', entity: 'team', project: 'demo', name: 'agent-001' };

describe('fault: what a costly command confirmed is what it sends', () => {
  let snapshots: typeof import('../../src/platform/host/fileSnapshot');
  let folder: string;
  const documents: FakeDocument[] = [];

  const uriOf = (path: string): FakeUri => ({ fsPath: path, toString: () => `file://${path}` });
  const documentOf = (path: string, text: string, isDirty: boolean): FakeDocument => {
    const document: FakeDocument = { uri: uriOf(path), isDirty, text, getText: () => document.text };
    documents.push(document);
    return document;
  };

  before(() => {
    const host = new FakeHost(manifestDefaults());
    const workspace = host.api.workspace as object;
    // The editor's open documents and its file system, over real files in a folder of the test's own.
    host.api.workspace = new Proxy(workspace, {
      get: (target, property) => {
        if (property === 'textDocuments') return documents;
        if (property === 'fs') return { readFile: async (uri: FakeUri) => new Uint8Array(readFileSync(uri.fsPath)) };
        return Reflect.get(target, property) as unknown;
      },
    });
    useHost(host);
    snapshots = require('../../src/platform/host/fileSnapshot') as typeof import('../../src/platform/host/fileSnapshot');
    folder = mkdtempSync(join(tmpdir(), 'rl-studio-confirm-'));
  });
  after(() => rmSync(folder, { recursive: true, force: true }));
  afterEach(() => documents.splice(0));

  const file = (name: string, text: string) => {
    const path = join(folder, name);
    writeFileSync(path, text);
    return path;
  };
  const snapshotOfDisk = (path: string) => snapshots.FileSnapshot.ofBytes(uriOf(path) as never, new Uint8Array(readFileSync(path)));

  it('a file that grows from 1 group to 40 after the confirmation: changed, and the refusal says so and that nothing was sent', async () => {
    const path = file('grows.jsonl', `${group}\n`);
    const snapshot = snapshotOfDisk(path);
    assert.equal(await snapshot.changed(), false, 'unchanged: sent');
    appendFileSync(path, `${group}\n`.repeat(39));
    assert.equal(await snapshot.changed(), true);
    assert.equal(snapshots.changedAfterConfirmation('grows.jsonl'), 'grows.jsonl changed after you confirmed; nothing was sent. Run the command again to send it as it is now.');
  });

  it('a file rewritten with the same bytes: unchanged; one byte flipped, or deleted: changed', async () => {
    const path = file('same.jsonl', `${group}\n${group}\n`);
    const snapshot = snapshotOfDisk(path);
    writeFileSync(path, `${group}\n${group}\n`);
    assert.equal(await snapshot.changed(), false);
    writeFileSync(path, `${group}\n${group.replace('"reward":1', '"reward":9')}\n`);
    assert.equal(await snapshot.changed(), true);
    const gone = file('gone.jsonl', group);
    const goneSnapshot = snapshotOfDisk(gone);
    rmSync(gone);
    assert.equal(await goneSnapshot.changed(), true);
  });

  it('an editor that has not caught up with the disk: counts as changed from the start, so its stale text is never sent', async () => {
    const path = file('stale.jsonl', `${group}\n`.repeat(40));
    const stale = documentOf(path, `${group}\n`, false);
    const snapshot = await snapshots.FileSnapshot.ofEditor(stale as never, stale.getText());
    assert.equal(await snapshot.changed(), true);
  });

  it('unsaved edits: the text read is what counts; edited again, or closed unsaved, it is changed', async () => {
    const path = file('edited.jsonl', `${group}\n`);
    const document = documentOf(path, `${group}\n${group}\n`, true);
    const snapshot = await snapshots.FileSnapshot.ofEditor(document as never, document.getText());
    writeFileSync(path, 'the disk is not what was read');
    assert.equal(await snapshot.changed(), false, 'the unsaved text is still there');
    document.text += `${group}\n`;
    assert.equal(await snapshot.changed(), true);
    document.text = `${group}\n${group}\n`;
    documents.splice(0);
    assert.equal(await snapshot.changed(), true, 'closed without saving');
  });

  it('a data URL dressed as a trusted host, with a 10,000-character path: the real host on its own line and the whole address, never cut', () => {
    const url = `https://data.trusted.example%2F@storage.attacker.example:8443/${'x'.repeat(10_000)}/sft.jsonl`;
    const lines = sftConfirmation({ model, dataUrl: url, config: undefined, trainingApiUrl: 'https://api.example/v1' }).detail.split('\n');
    assert.ok(lines.includes('Training data host: storage.attacker.example:8443'), lines.slice(0, 3).join('\n'));
    assert.ok(lines.includes(`Training data: ${url}`));
  });

  it('file names and model names holding line breaks or bidi controls stay on their line, visibly escaped', () => {
    const name = 'run.jsonl\n- step 24 · reward 0.99\u202e';
    const forgedModel = { ...model, name: 'agent\nSucceeded: 1,000 groups' };
    const all = [
      trainingConfirmation({ source: { name, path: `/repo/${name}` }, groups: 1, trajectories: 1, model: forgedModel, config: undefined, trainingApiUrl: 'https://api.example/v1' }),
      logConfirmation({ source: { name, path: `/repo/${name}` }, groups: 1, trajectories: 1, model: forgedModel, split: 'train\nval', trainingApiUrl: 'https://api.example/v1' }),
      deleteModelConfirmation(forgedModel, 'https://api.example/v1', undefined),
      deleteCheckpointsConfirmation(forgedModel, [1], 'https://api.example/v1'),
    ];
    for (const confirmation of all) {
      const text = `${confirmation.message}\n${confirmation.detail}`;
      assert.doesNotMatch(text, /^- step 24/m);
      assert.doesNotMatch(text, /^Succeeded/m);
      assert.doesNotMatch(text, /\u202e/);
      assert.ok(!confirmation.message.includes('\n'), confirmation.message);
    }
    assert.match(all[0]!.message, /run\.jsonl\\n- step 24 · reward 0\.99\\u202e/);
  });

  it('30 scattered steps and 10,000 contiguous ones: every step named, as ranges', () => {
    const scattered = Array.from({ length: 30 }, (_, index) => index * 7);
    const detail = deleteCheckpointsConfirmation(model, scattered, 'https://api.example/v1').detail;
    const named = /^Steps: (.*)$/m.exec(detail)![1]!.split(', ').map(Number);
    assert.deepEqual(named, scattered);
    assert.match(
      deleteCheckpointsConfirmation(
        model,
        Array.from({ length: 10_000 }, (_, step) => step),
        'https://api.example/v1',
      ).detail,
      /^Steps: 0–9999$/m,
    );
  });

  it('a webhook test to an address whose host is 200 characters long and whose path holds a token: the host whole, the token masked', () => {
    const host = `${'a'.repeat(190)}.example.com`;
    const token = 'xoxb-SECRET-0123456789-abcdef';
    const url = `https://${host}/services/${token}`;
    const { detail } = sendTestConfirmation({
      webhook: 'deploy',
      url,
      secrets: endpointSecrets(url),
      payload: 'hooks/deploy.payload.json',
      sampleEvent: 'LINK_ARTIFACT',
      bodyBytes: 2,
      carriesAccessToken: false,
      signedWith: undefined,
    });
    assert.equal(detail.split('\n')[0], `Endpoint host: ${host}`);
    assert.ok(!detail.includes('SECRET-0123'), detail);
  });
});
