/**
 * The programs a run would start: its command scorers, each named by what runs (the program, its
 * arguments, its working directory), which is what a person allows and what an allowance is
 * remembered by, together with the digest of the file that named it. A program chosen in this
 * window's dialog runs; one named by a workspace file runs only once the person allowed exactly
 * that program, those arguments, that directory and that file's content. No `vscode` here.
 */
import { contentDigest, quoted } from '../kit/confirmationText';
import type { NamedScorer } from './scorerSpec';

/** A program that scores an answer: what a `command` scorer names (commandScorer.ts runs it). */
export interface CommandScorerSpec {
  command: string;
  args?: string[];
  timeoutMs?: number;
}

/** One program a run would start, and the scorer that names it. */
export interface ProgramUse {
  scorer: string;
  command: string;
  args: readonly string[];
  cwd: string;
}

/** The command scorers of a run, as the programs they start in `cwd`. */
export function programsOf(scorers: readonly NamedScorer[], cwd: string): ProgramUse[] {
  const uses: ProgramUse[] = [];
  for (const { name, spec } of scorers) if (spec.kind === 'command') uses.push({ scorer: name, command: spec.command, args: [...(spec.args ?? [])], cwd });
  return uses;
}

/** What identifies a program to run: the same program, arguments and directory are the same program. */
export function programIdentity(use: Pick<ProgramUse, 'command' | 'args' | 'cwd'>): string {
  return contentDigest(JSON.stringify([use.command, use.args, use.cwd]));
}

/** The key an allowance is remembered by: the program and the digest of the file that named it. */
export function programAllowanceKey(use: ProgramUse, fileDigest: string): string {
  return `program:${programIdentity(use)}:${fileDigest}`;
}

/** Whether a command scorer's spec starts one of the allowed programs (all in `cwd`). */
export function isAllowedProgram(spec: CommandScorerSpec, cwd: string, allowed: ReadonlySet<string>): boolean {
  return allowed.has(programIdentity({ command: spec.command, args: spec.args ?? [], cwd }));
}

/** The lines of a confirmation naming a program whole: what runs, with which arguments, where. Nothing is cut. */
export function describeProgram(use: ProgramUse): string[] {
  return [
    `Program: ${quoted(use.command, Number.MAX_SAFE_INTEGER)}`,
    `Arguments: ${use.args.length === 0 ? '(none)' : use.args.map((arg) => quoted(arg, Number.MAX_SAFE_INTEGER)).join(' ')}`,
    `Working directory: ${quoted(use.cwd, Number.MAX_SAFE_INTEGER)}`,
    `Scorer: ${quoted(use.scorer)}`,
  ];
}
