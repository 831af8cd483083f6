import { clipboard, dialogs, memento, secretStorage, type Dialog } from '../platform/client/support/fakeVscode';
import assert from 'node:assert/strict';
import { Dialogs } from '../../../src/platform/host/dialogs';
import type { Services } from '../../../src/platform/host/services';
import { registerWebhookCommands } from '../../../src/webhooks/host/webhookCommands';
import { WebhooksTreeProvider, type WebhookNode } from '../../../src/webhooks/host/webhooksTree';
import { WebhookStore } from '../../../src/webhooks/host/webhookStore';
import type { ReceiverController } from '../../../src/webhooks/host/receiverController';
import { survivingPiece } from '../platform/client/support/keys';

const hookUrl = 'https://hooks.example.com/services/T0ABCDEF1/B0GHIJKL2/q8Zr4WvXn2Lp7Ks9Tb3Yd6Hm';
const pathToken = 'q8Zr4WvXn2Lp7Ks9Tb3Yd6Hm';

type Handler = (...args: unknown[]) => Promise<unknown>;

function setUp(testMode: boolean, initial: Record<string, unknown> = {}) {
  const state = memento(initial);
  const secrets = secretStorage();
  const revealed: string[] = [];
  const store = new WebhookStore(state as never, secrets as never, (value) => revealed.push(value));
  const handlers = new Map<string, Handler>();
  const services = {
    testMode,
    dialogs: new Dialogs(testMode),
    registerCommand: (id: string, handler: Handler) => handlers.set(id, handler),
  } as unknown as Services;
  registerWebhookCommands(services, store);
  const run = (id: string, ...args: unknown[]) => handlers.get(id)!(...args);
  return { state, secrets, revealed, store, run };
}

/** Answers an input box with what it was filled in with, or with `value`. */
const accept = (value?: string) => (dialog: Dialog) => value ?? (dialog.shown as { value?: string }).value;

const passwordBoxes = () => dialogs.shown.filter((dialog) => dialog.kind === 'input' && (dialog.shown as { password?: boolean }).password);

describe('webhook URLs in secret storage', () => {
  beforeEach(() => dialogs.reset());

  it('keeps the URL in secret storage only; the list, tree and pickers see the masked endpoint', async () => {
    const { state, secrets, store, revealed } = setUp(true);
    const webhook = await store.add({ name: 'deploy', url: hookUrl }, { accessToken: 'tok-Vn3Lq8Zr4WxP' });
    assert.equal(webhook.endpoint, 'https://hooks.example.com/services/…');
    assert.equal(survivingPiece(JSON.stringify([...state.values]), pathToken), undefined, 'global state holds no piece of the path token');
    assert.equal(await store.url(webhook.id), hookUrl);
    assert.ok([...secrets.values.values()].includes(hookUrl));
    assert.ok(
      revealed.some((value) => value.includes(pathToken)),
      'the log hears the path token',
    );
    assert.ok(revealed.includes('tok-Vn3Lq8Zr4WxP'), 'and the access token');

    const receiver = { onDidChange: () => ({ dispose: () => undefined }), running: undefined } as unknown as ReceiverController;
    const tree = new WebhooksTreeProvider(store, receiver);
    const [node] = tree.getChildren();
    const item = tree.getTreeItem(node);
    const shown = JSON.stringify({ description: item.description, tooltip: item.tooltip });
    assert.equal(survivingPiece(shown, pathToken), undefined, shown);
    assert.equal(survivingPiece(shown, 'T0ABCDEF1/B0GHIJKL2'), undefined, shown);
  });

  it('moves URLs of earlier versions out of global state, once', async () => {
    const legacy = [
      { id: 'a1', name: 'old', url: hookUrl, hasAccessToken: false },
      { id: 'b2', name: 'local', url: 'http://127.0.0.1:8080/hooks', hasAccessToken: false },
    ];
    const { state, secrets, store, revealed } = setUp(true, { 'rlStudio.webhooks': legacy });
    assert.equal(survivingPiece(JSON.stringify(store.list()), pathToken), undefined, 'not even before the move finished');
    await store.migrated;
    const stored = state.values.get('rlStudio.webhooks') as Array<Record<string, unknown>>;
    assert.deepEqual(
      stored.map((entry) => [entry.id, entry.url, entry.endpoint]),
      [
        ['a1', undefined, 'https://hooks.example.com/services/…'],
        ['b2', undefined, 'http://127.0.0.1:8080/hooks'],
      ],
    );
    assert.equal(secrets.values.get('rlStudio.webhook.a1.url'), hookUrl);
    assert.equal(await store.url('b2'), 'http://127.0.0.1:8080/hooks');
    assert.ok(revealed.some((value) => value.includes(pathToken)));

    const again = new WebhookStore(state as never, secrets as never);
    await again.migrated;
    assert.deepEqual(again.list(), store.list(), 'a second start finds nothing to move');
  });

  it('keeps a URL where it was when secret storage refuses it, and still shows it masked', async () => {
    const state = memento({ 'rlStudio.webhooks': [{ id: 'a1', name: 'old', url: hookUrl, hasAccessToken: false }] });
    const store = new WebhookStore(state as never, secretStorage(true) as never);
    await store.migrated;
    assert.equal((state.values.get('rlStudio.webhooks') as Array<{ url?: string }>)[0].url, hookUrl, 'not lost');
    assert.equal(store.list()[0].endpoint, 'https://hooks.example.com/services/…');
    assert.equal(await store.url('a1'), hookUrl);
  });

  it('forgets the URL with the webhook', async () => {
    const { secrets, store } = setUp(true);
    const webhook = await store.add({ name: 'deploy', url: hookUrl }, {});
    await store.remove(webhook.id);
    assert.equal([...secrets.values.keys()].length, 0);
  });
});

describe('webhook commands called by another extension', () => {
  beforeEach(() => dialogs.reset());

  it('add: a draft only fills in the boxes; the token and secret are typed by the user', async () => {
    const { store, run } = setUp(false);
    dialogs.answers.push(accept(), accept(), accept('typed-token-Zq81'), accept(), accept('typed-secret-Wp42'));
    const id = (await run('rlStudio.webhook.add', {
      name: 'planted',
      url: 'https://collector.example/in',
      accessToken: 'planted-token',
      secretName: 'S',
      secretValue: 'planted-secret',
    })) as string;
    assert.equal(dialogs.shown.length, 5, 'every box was shown');
    assert.equal(passwordBoxes().length, 2);
    for (const box of passwordBoxes()) assert.equal((box.shown as { value?: string }).value, undefined, 'a password box is never filled in by a caller');
    assert.deepEqual(await store.credentials(id), { accessToken: 'typed-token-Zq81', secret: 'typed-secret-Wp42' });
  });

  it('add: cancelling the first box adds nothing', async () => {
    const { store, run } = setUp(false);
    assert.equal(await run('rlStudio.webhook.add', { name: 'x', url: 'https://a.example/' }), undefined);
    assert.equal(store.list().length, 0);
  });

  it("add: the extension's own tests may pass a complete draft", async () => {
    const { store, run } = setUp(true);
    const id = (await run('rlStudio.webhook.add', { name: 'n', url: 'https://a.example/h', accessToken: 'given-token-1', secretName: 'S', secretValue: 'given-secret' })) as string;
    assert.equal(dialogs.shown.length, 0);
    assert.deepEqual(await store.credentials(id), { accessToken: 'given-token-1', secret: 'given-secret' });
  });

  it('setAccessToken(target, value): the value is ignored and the user asked', async () => {
    const { store, run } = setUp(false);
    const webhook = await store.add({ name: 'n', url: 'https://a.example/h' }, { accessToken: 'original-token' });
    await run('rlStudio.webhook.setAccessToken', webhook.id, 'planted-token');
    assert.equal(passwordBoxes().length, 1);
    assert.deepEqual(await store.credentials(webhook.id), { accessToken: 'original-token' });
  });

  it('setSecret(target, name, value): the name only fills in the box, the value is asked', async () => {
    const { store, run } = setUp(false);
    const webhook = await store.add({ name: 'n', url: 'https://a.example/h' }, {});
    dialogs.answers.push(accept('MY_SECRET'));
    await run('rlStudio.webhook.setSecret', webhook.id, 'PLANTED', 'planted-value');
    assert.equal(dialogs.shown.length, 2, 'name box, then the value box (cancelled)');
    assert.equal(passwordBoxes().length, 1);
    assert.equal(store.get(webhook.id)!.secretName, undefined, 'nothing was set');
  });

  it('remove(id, true): the user still confirms, told which webhook goes', async () => {
    const { store, run } = setUp(false);
    const webhook = await store.add({ name: 'prod-deploy', url: hookUrl }, {});
    assert.equal(await run('rlStudio.webhook.remove', webhook.id, true), false);
    assert.equal(dialogs.shown.length, 1);
    const message = (dialogs.shown[0].shown as { message: string }).message;
    assert.match(message, /"prod-deploy"/);
    assert.equal(survivingPiece(message, pathToken), undefined);
    assert.ok(store.get(webhook.id), 'still there');
  });

  it('copyUrl with a made-up tree node: the user picks, nothing reaches the clipboard unasked', async () => {
    const { store, run } = setUp(false);
    const webhook = await store.add({ name: 'deploy', url: hookUrl }, {});
    clipboard.text = '';
    await run('rlStudio.webhook.copyUrl', { type: 'webhook', webhook: { id: webhook.id } });
    assert.equal(dialogs.shown[0]?.kind, 'quickPick');
    const items = JSON.stringify(dialogs.shown[0].shown);
    assert.equal(survivingPiece(items, pathToken), undefined, 'the picker shows masked endpoints');
    assert.equal(clipboard.text, '');

    const receiver = { onDidChange: () => ({ dispose: () => undefined }), running: undefined } as unknown as ReceiverController;
    const [node] = new WebhooksTreeProvider(store, receiver).getChildren() as WebhookNode[];
    await run('rlStudio.webhook.copyUrl', node);
    assert.equal(clipboard.text, hookUrl, 'a click on the node the view showed copies it');
  });
});
