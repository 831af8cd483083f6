import type { Services } from '../services';

type Handler = (...args: any[]) => unknown;

/**
 * The commands of a feature whose code loads on first use. VS Code needs every command of
 * package.json registered during activation (a command can be what activates the extension), so
 * each one is registered here at once; its first call loads the feature, which hands its handlers
 * to this table instead of registering them itself.
 */
export class DeferredCommands {
  private readonly handlers = new Map<string, Handler>();

  constructor(
    private readonly services: Services,
    private readonly ids: readonly string[],
    private readonly load: () => unknown,
  ) {
    for (const id of ids) services.registerCommand(id, (...args: unknown[]) => this.handlerOf(id)(...args));
  }

  /**
   * The services to start the feature with: the same, except that its commands go to this table.
   * A command missing from the list would never be registered, so that fails the feature at once.
   */
  servicesForFeature(): Services {
    return {
      ...this.services,
      registerCommand: (id, handler) => {
        if (!this.ids.includes(id)) throw new Error(`the command ${id} is missing from the list of its feature's commands`);
        this.handlers.set(id, handler);
      },
    };
  }

  private handlerOf(id: string): Handler {
    this.load();
    const handler = this.handlers.get(id);
    if (!handler) throw new Error(`the command ${id} was not registered by its feature`);
    return handler;
  }
}
