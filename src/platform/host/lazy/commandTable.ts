import { commandOwners, testOnlyCommands, type CommandOwner, type LateFeature } from './featureCommands';

export type CommandHandler = (...args: any[]) => unknown;

export interface CommandTableOptions {
  /** Registers a command with the editor (VS Code, wrapped in the extension's logging and error display). */
  registerWithEditor(id: string, handler: CommandHandler): void;
  /** Whether the extension runs its own tests: test-only commands exist only then. */
  testMode: boolean;
  /** Who handles each command; the extension's table (featureCommands.ts) unless a test gives its own. */
  owners?: Readonly<Record<string, CommandOwner>>;
  testOnly?: readonly string[];
}

/**
 * Where every command of the extension is registered, whoever handles it. A command of the
 * activation glue goes to the editor at once. A command of a late feature was registered with the
 * editor at activation (`loadOnFirstCall`), as a stand-in that loads the feature and calls the
 * handler the feature then registered here. Either way a feature registers its commands the same
 * way, and a command missing from the table fails its feature at once instead of never existing.
 */
export class CommandTable {
  private readonly owners: Readonly<Record<string, CommandOwner>>;
  private readonly testOnly: readonly string[];
  private readonly handlers = new Map<string, CommandHandler>();
  private readonly loaders = new Set<LateFeature>();

  constructor(private readonly options: CommandTableOptions) {
    this.owners = options.owners ?? commandOwners;
    this.testOnly = options.testOnly ?? testOnlyCommands;
  }

  /** Registers the handler of `id`: with the editor, or in the slot of its late feature's stand-in. */
  register(id: string, handler: CommandHandler): void {
    const owner = this.ownerOf(id);
    if (owner === 'activation') {
      this.options.registerWithEditor(id, handler);
      return;
    }
    if (!this.loaders.has(owner)) throw new Error(`the command ${id} belongs to ${owner}, whose commands were not registered at activation`);
    // A feature whose start failed halfway starts again on the next call: its handlers replace the first ones.
    this.handlers.set(id, handler);
  }

  /**
   * At activation: registers with the editor every command `feature` handles, each calling `load`
   * (which loads the feature once, see onFirstUse) and then the handler the feature registered.
   */
  loadOnFirstCall(feature: LateFeature, load: () => unknown): void {
    if (this.loaders.has(feature)) throw new Error(`the commands of ${feature} were registered twice`);
    this.loaders.add(feature);
    for (const [id, owner] of Object.entries(this.owners)) {
      if (owner !== feature || (!this.options.testMode && this.testOnly.includes(id))) continue;
      this.options.registerWithEditor(id, (...args: unknown[]) => {
        load();
        const handler = this.handlers.get(id);
        if (!handler) throw new Error(`the command ${id} was not registered by ${feature}`);
        return handler(...args);
      });
    }
  }

  private ownerOf(id: string): CommandOwner {
    const owner = this.owners[id];
    if (!owner) throw new Error(`the command ${id} is missing from the table of commands (featureCommands.ts)`);
    if (!this.options.testMode && this.testOnly.includes(id)) throw new Error(`the command ${id} exists only while the extension runs its own tests`);
    return owner;
  }
}
