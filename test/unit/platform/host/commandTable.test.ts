import assert from 'node:assert/strict';
import { CommandTable, type CommandHandler } from '../../../../src/platform/host/lazy/commandTable';
import type { CommandOwner } from '../../../../src/platform/host/lazy/featureCommands';
import { onFirstUse } from '../../../../src/platform/host/lazy/onFirstUse';

const owners: Record<string, CommandOwner> = {
  'rlStudio.signIn': 'activation',
  'rlStudio.one': 'training',
  'rlStudio.two': 'training',
  'rlStudio.open': 'chat',
  'rlStudio.report': 'chat',
};

/** A table over the commands above whose editor keeps the handlers, refusing a second one as VS Code does. */
function tableWithEditor(testMode = false): { table: CommandTable; editor: Map<string, CommandHandler> } {
  const editor = new Map<string, CommandHandler>();
  const registerWithEditor = (id: string, handler: CommandHandler) => {
    if (editor.has(id)) throw new Error(`command '${id}' already exists`);
    editor.set(id, handler);
  };
  return { table: new CommandTable({ registerWithEditor, testMode, owners, testOnly: ['rlStudio.report'] }), editor };
}

describe('the one command registration', () => {
  it('registers a command of the activation glue with the editor at once', async () => {
    const { table, editor } = tableWithEditor();
    table.register('rlStudio.signIn', () => 'signed in');
    assert.deepEqual([...editor.keys()], ['rlStudio.signIn']);
    assert.equal(await editor.get('rlStudio.signIn')!(), 'signed in');
  });

  it("registers a late feature's commands as stand-ins, and loads the feature once, on the first call", async () => {
    const { table, editor } = tableWithEditor();
    let loads = 0;
    const sidebar = onFirstUse('training', undefined, () => {
      loads++;
      table.register('rlStudio.one', (value: number) => value + 1);
      table.register('rlStudio.two', async () => 'two');
    });
    table.loadOnFirstCall('training', sidebar);
    assert.deepEqual([...editor.keys()].sort(), ['rlStudio.one', 'rlStudio.two']);
    assert.equal(loads, 0, 'registering the stand-ins does not load the feature');

    assert.equal(await editor.get('rlStudio.one')!(41), 42);
    assert.equal(await editor.get('rlStudio.two')!(), 'two');
    assert.equal(await editor.get('rlStudio.one')!(1), 2);
    assert.equal(loads, 1);
    assert.equal(editor.size, 2, "the feature's handlers are not registered with the editor a second time");
  });

  it('registers test-only commands only in test mode, and refuses their handlers outside it', async () => {
    const outside = tableWithEditor(false);
    outside.table.loadOnFirstCall('chat', () => undefined);
    assert.deepEqual([...outside.editor.keys()], ['rlStudio.open']);
    assert.throws(() => outside.table.register('rlStudio.report', () => 'report'), /rlStudio\.report exists only while the extension runs its own tests/);

    const inTests = tableWithEditor(true);
    inTests.table.loadOnFirstCall('chat', () => inTests.table.register('rlStudio.report', () => 'report'));
    assert.deepEqual([...inTests.editor.keys()].sort(), ['rlStudio.open', 'rlStudio.report']);
    assert.equal(await inTests.editor.get('rlStudio.report')!(), 'report');
  });

  it('refuses a command missing from the table', () => {
    const { table } = tableWithEditor();
    assert.throws(() => table.register('rlStudio.other', () => undefined), /rlStudio\.other is missing from the table of commands/);
  });

  it('refuses a late command whose feature registered no stand-ins at activation', () => {
    const { table } = tableWithEditor();
    assert.throws(() => table.register('rlStudio.one', () => undefined), /rlStudio\.one belongs to training, whose commands were not registered at activation/);
  });

  it("refuses a feature's stand-ins registered twice", () => {
    const { table } = tableWithEditor();
    table.loadOnFirstCall('training', () => undefined);
    assert.throws(() => table.loadOnFirstCall('training', () => undefined), /commands of training were registered twice/);
  });

  it('says so when the loaded feature did not register one of its commands', () => {
    const { table, editor } = tableWithEditor();
    table.loadOnFirstCall('training', () => table.register('rlStudio.one', () => 1));
    assert.throws(() => editor.get('rlStudio.two')!(), /rlStudio\.two was not registered by training/);
  });

  it('passes a start that failed halfway on to the caller, and starts the feature again on the next call', async () => {
    const { table, editor } = tableWithEditor();
    let attempts = 0;
    table.loadOnFirstCall(
      'training',
      onFirstUse('training', undefined, () => {
        attempts++;
        table.register('rlStudio.one', () => `start ${attempts}`);
        if (attempts === 1) throw new Error('the views failed to start');
        table.register('rlStudio.two', () => 'two');
      }),
    );
    assert.throws(() => editor.get('rlStudio.two')!(), /the views failed to start/);
    assert.equal(await editor.get('rlStudio.one')!(), 'start 2');
    assert.equal(await editor.get('rlStudio.two')!(), 'two');
  });
});
