import * as vscode from 'vscode';
import { contentDigest, quoted } from '../../platform/kit/confirmationText';
import { describeProgram, programAllowanceKey, programIdentity, type ProgramUse } from '../../platform/scoring/programScorers';
import type { Services } from '../../platform/host/services';

/** Where allowances are kept (this workspace only), and how many: the oldest go first. */
const storageKey = 'rlStudio.evals.allowedPrograms';
const keptAllowances = 200;

/** The file that named the programs: its name as shown, and the digest of the bytes that were read. */
export interface NamingFile {
  label: string;
  digest: string;
  /** What the file is, in words: "results file", "task file". */
  kind: string;
}

/** The programs a run was allowed to start, and how an allowance follows the file when the run rewrites it. */
export interface AllowedPrograms {
  /** `programIdentity` of each program the run may start. */
  identities: ReadonlySet<string>;
  /** Remembers the allowances for the file's new content, written by the run itself. */
  rewritten(text: string): Promise<void>;
}

/** Nothing may run: the default of a run whose scorers nobody chose or allowed. */
export const noPrograms: AllowedPrograms = { identities: new Set(), rewritten: async () => undefined };

/**
 * The person's "Allow" for programs named by a workspace file, kept in workspaceState per program
 * (program, arguments, directory) and digest of the file that named it: the same file asking again
 * runs without a question, a file changed by anyone but RL Studio asks again. Only "Allow" is kept.
 */
class ProgramAllowances {
  constructor(private readonly memento: vscode.Memento) {}

  has(key: string): boolean {
    return this.list().includes(key);
  }

  async add(keys: readonly string[]): Promise<void> {
    const fresh = [...new Set(keys)].filter((key) => !this.has(key));
    if (fresh.length > 0) await this.memento.update(storageKey, [...this.list(), ...fresh].slice(-keptAllowances));
  }

  async remove(keys: readonly string[]): Promise<void> {
    const kept = this.list().filter((key) => !keys.includes(key));
    await this.memento.update(storageKey, kept);
  }

  private list(): string[] {
    const stored = this.memento.get<unknown>(storageKey, []);
    return Array.isArray(stored) ? stored.filter((entry): entry is string => typeof entry === 'string') : [];
  }
}

/** Programs chosen by the person in this window's dialog: they run, and a retry of the file they write runs them again without a question. */
export function chosenPrograms(services: Services, uses: readonly ProgramUse[]): AllowedPrograms {
  return allowed(new ProgramAllowances(services.context.workspaceState), uses);
}

/** Why a file's programs may not run here: Restricted Mode, where no question is even asked; undefined in a trusted workspace or when it names none. */
export function refusedInRestrictedMode(uses: readonly ProgramUse[], file: NamingFile): string | undefined {
  const first = uses[0];
  if (!first || vscode.workspace.isTrusted) return undefined;
  return `Nothing was sent: ${file.label} names the program ${quoted(first.command)} as the scorer ${quoted(first.scorer)}, and RL Studio never runs a program in Restricted Mode. Trust this workspace if you want it to run.`;
}

/**
 * Asks, for each program a workspace file names, whether it may run: never in Restricted Mode; in
 * a trusted workspace a modal naming the program, its arguments and its directory, unless the
 * person allowed the same program for the same file content before. Resolves with the allowed
 * programs, or with the reason nothing may run (a sentence for the person).
 */
export async function allowNamedPrograms(services: Services, uses: readonly ProgramUse[], file: NamingFile): Promise<{ allowed: AllowedPrograms } | { refused: string }> {
  if (uses.length === 0) return { allowed: noPrograms };
  const restricted = refusedInRestrictedMode(uses, file);
  if (restricted) return { refused: restricted };
  const allowances = new ProgramAllowances(services.context.workspaceState);
  for (const use of uses) {
    const key = programAllowanceKey(use, file.digest);
    if (allowances.has(key)) continue;
    const yes = await services.dialogs.confirm(
      `Run a program named by ${file.label}?`,
      services.log.redact(
        [
          `The ${file.kind} ${file.label} names a program as the scorer ${quoted(use.scorer)}. It would run once per answer scored, with the answer on its input, with your permissions:`,
          ...describeProgram(use),
          'Allow it only if you know this program and trust this file.',
        ].join('\n'),
      ),
      'Allow and Run',
    );
    if (!yes) return { refused: `Nothing was sent: you did not allow the program ${quoted(use.command)} that ${file.label} names as the scorer ${quoted(use.scorer)}.` };
    await allowances.add([key]);
  }
  return { allowed: allowed(allowances, uses, file.digest) };
}

/**
 * The programs allowed, following the file as the run rewrites it: the allowance moves from the
 * content it was given for (`fromDigest`) to each content the run writes, so a long run's saves do
 * not crowd out other allowances, and the content that is gone is allowed no more.
 */
function allowed(allowances: ProgramAllowances, uses: readonly ProgramUse[], fromDigest?: string): AllowedPrograms {
  let current = fromDigest;
  const keys = (digest: string): string[] => uses.map((use) => programAllowanceKey(use, digest));
  return {
    identities: new Set(uses.map(programIdentity)),
    rewritten: async (text) => {
      if (uses.length === 0) return;
      const digest = contentDigest(text);
      await allowances.add(keys(digest));
      if (current !== undefined && current !== digest) await allowances.remove(keys(current));
      current = digest;
    },
  };
}
