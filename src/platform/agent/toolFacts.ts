/**
 * What each language-model tool last found, as data: a tool answers with text for the model and,
 * beside it, the facts that text was written from. The @rlstudio participant reads the facts here
 * (the states of the jobs it listed, say) instead of parsing the text back, where names and
 * messages are foreign text. One table per agent; each tool's latest answer replaces its previous.
 */
export class ToolFacts {
  private readonly latestByTool = new Map<string, unknown>();

  record(tool: string, facts: unknown): void {
    if (facts === undefined) this.latestByTool.delete(tool);
    else this.latestByTool.set(tool, facts);
  }

  /** Forgets a tool's facts, so that what is read after its next call is that call's. */
  forget(tool: string): void {
    this.latestByTool.delete(tool);
  }

  latest<Facts>(tool: string): Facts | undefined {
    return this.latestByTool.get(tool) as Facts | undefined;
  }
}
