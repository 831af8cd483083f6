/**
 * The command scorer: a program of the workspace reads `{"sample": …, "answer": "…"}` as JSON on
 * stdin and prints a score. It runs without a shell (execFile: arguments are never parsed), only in
 * trusted workspaces, only when the run was allowed to start exactly that program (programScorers.ts:
 * chosen in this window's dialog, or allowed by the person when a file named it), for at most `timeoutMs` (then killed), and at most `maxStdoutBytes` of its
 * output are read (more kills it too). The first number it prints is the score, clamped to [0, 1].
 */
import { execFile } from 'node:child_process';
import type { ScoredSample } from './scorerSpec';
import type { Score } from './builtinScorers';
import { cutText } from '../kit/plainValues';
import { quoted } from '../kit/confirmationText';
import { isAllowedProgram, type CommandScorerSpec } from './programScorers';

export const defaultCommandTimeoutMs = 10_000;
export const maxCommandTimeoutMs = 300_000;
export const maxStdoutBytes = 64 * 1024;
/** How long after its timeout a killed program's output pipes may stay open before the score stops waiting. */
const backstopMs = 2_000;
/** Characters of the program's error output quoted when it fails. */
const maxQuotedChars = 300;

export interface CommandContext {
  /** The workspace folder: the program's working directory, where a relative command is found. */
  cwd: string;
  /** Whether the workspace is trusted; an untrusted one never runs a program. */
  trusted: boolean;
  /** The programs this run may start (`programIdentity` of each); any other is refused without running. */
  allowed: ReadonlySet<string>;
  signal?: AbortSignal;
}

export function runCommandScorer(spec: CommandScorerSpec, sample: ScoredSample, answer: string, context: CommandContext): Promise<Score> {
  if (!context.trusted) return Promise.resolve({ error: 'command scorers run only in trusted workspaces; trust this workspace to use it' });
  if (spec.command.trim() === '') return Promise.resolve({ error: 'the scorer names no command' });
  if (!isAllowedProgram(spec, context.cwd, context.allowed))
    return Promise.resolve({ error: `the program ${quoted(spec.command)} was not run: it was neither chosen in this window nor allowed by you for this results file` });
  const timeoutMs = Math.min(Math.max(1, spec.timeoutMs ?? defaultCommandTimeoutMs), maxCommandTimeoutMs);
  const input = JSON.stringify({ sample: { id: sample.id, messages: sample.messages, reference: sample.reference, metadata: sample.metadata }, answer });
  return new Promise((resolve) => {
    let settled = false;
    const finish = (score: Score): void => {
      if (settled) return;
      settled = true;
      clearTimeout(backstop);
      resolve(score);
    };
    const child = execFile(
      spec.command,
      spec.args ?? [],
      { cwd: context.cwd, shell: false, windowsHide: true, timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: maxStdoutBytes, encoding: 'utf8', signal: context.signal },
      (error, stdout, stderr) => finish(outcome(spec.command, timeoutMs, error, stdout, stderr)),
    );
    // execFile reports only once the output pipes close; a process the program started may hold
    // them open after the program was killed. The score does not wait for it.
    const backstop = setTimeout(() => {
      child.kill('SIGKILL');
      child.stdout?.destroy();
      child.stderr?.destroy();
      finish({ error: `the scorer did not finish within ${timeoutMs / 1000} s and was stopped` });
    }, timeoutMs + backstopMs);
    backstop.unref();
    // A program that exits without reading its input closes the pipe: that is its business, not a failure.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(input);
  });
}

type ExecError = (Error & { code?: string | number | null; killed?: boolean; signal?: NodeJS.Signals | null }) | null;

function outcome(command: string, timeoutMs: number, error: ExecError, stdout: string, stderr: string): Score {
  if (error) {
    const said = stderr.trim() ? `: ${cutText(stderr.trim().split('\n')[0]!, maxQuotedChars)}` : '';
    if (error.code === 'ENOENT') return { error: `the scorer's command "${command}" was not found` };
    if (error.code === 'EACCES') return { error: `the scorer's command "${command}" may not be run (no permission)` };
    if (error.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') return { error: `the scorer printed more than ${maxStdoutBytes / 1024} KB and was stopped` };
    if (error.name === 'AbortError') return { error: 'the scorer was stopped: the run was cancelled' };
    if (error.killed || error.signal) return { error: `the scorer did not finish within ${timeoutMs / 1000} s and was stopped` };
    if (typeof error.code === 'number') return { error: `the scorer exited with code ${error.code}${said}` };
    return { error: `the scorer could not run (${cutText(error.message, maxQuotedChars)})` };
  }
  const number = /-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/.exec(stdout);
  if (!number) return { error: `the scorer printed no number${stdout.trim() ? ` (it printed "${cutText(stdout.trim(), 80)}")` : ''}` };
  const value = Number(number[0]);
  if (!Number.isFinite(value)) return { error: `the scorer printed ${cutText(number[0], 40)}, not a usable number` };
  return Math.min(1, Math.max(0, value));
}
