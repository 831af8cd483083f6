import assert from 'node:assert/strict';
import { DeferredCommands } from '../../../src/vscode/platform/lazy/deferredCommands';
import type { Services } from '../../../src/vscode/platform/services';

type Handler = (...args: unknown[]) => unknown;

/** Services whose registerCommand keeps the handlers, as VS Code would. */
function fakeServices(): { services: Services; registered: Map<string, Handler> } {
  const registered = new Map<string, Handler>();
  const services = {
    registerCommand: (id: string, handler: Handler) => {
      if (registered.has(id)) throw new Error(`command '${id}' already exists`);
      registered.set(id, handler);
    },
    marker: 'the other services',
  } as unknown as Services;
  return { services, registered };
}

describe('commands of a feature loaded on first use', () => {
  it('registers every listed command at once, and loads the feature on the first call only', async () => {
    const { services, registered } = fakeServices();
    let loads = 0;
    const load = () => {
      if (loads++ > 0) return;
      const featureServices = commands.servicesForFeature();
      featureServices.registerCommand('rlStudio.one', (value: number) => value + 1);
      featureServices.registerCommand('rlStudio.two', async () => 'two');
    };
    const commands = new DeferredCommands(services, ['rlStudio.one', 'rlStudio.two'], load);
    assert.deepEqual([...registered.keys()], ['rlStudio.one', 'rlStudio.two']);
    assert.equal(loads, 0, 'registering does not load the feature');

    assert.equal(await registered.get('rlStudio.one')!(41), 42);
    assert.equal(await registered.get('rlStudio.two')!(), 'two');
    assert.equal(loads, 2, 'each call asks for the feature (the loader keeps it)');
  });

  it('hands the feature the same services, with its commands going to the table', () => {
    const { services, registered } = fakeServices();
    const commands = new DeferredCommands(services, ['rlStudio.one'], () => undefined);
    const featureServices = commands.servicesForFeature() as Services & { marker: string };
    assert.equal(featureServices.marker, 'the other services');
    featureServices.registerCommand('rlStudio.one', () => 1);
    assert.equal(registered.size, 1, 'nothing more is registered with the editor');
  });

  it('fails the feature when it registers a command missing from its list', () => {
    const { services } = fakeServices();
    const commands = new DeferredCommands(services, ['rlStudio.one'], () => undefined);
    assert.throws(() => commands.servicesForFeature().registerCommand('rlStudio.other', () => undefined), /rlStudio\.other is missing/);
  });

  it('says so when the feature did not register a listed command', () => {
    const { services, registered } = fakeServices();
    new DeferredCommands(services, ['rlStudio.one'], () => undefined);
    assert.throws(() => registered.get('rlStudio.one')!(), /rlStudio\.one was not registered by its feature/);
  });
});
