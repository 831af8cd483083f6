import * as vscode from 'vscode';
import { errorMessage } from '../client/errorMessage';
import { redactSecrets } from '../client/redact';
import { escapeLineBreaks } from '../kit/format';

const recentLimit = 500;
/** A line longer than this (a whole response body in an error) is cut: the log is for reading. */
const lineLimit = 8_000;

/**
 * The "RL Studio" log channel. Every line is redacted as its very last step, after it was
 * formatted and cut: the secrets the extension knows (API key, webhook URLs, tokens and secrets,
 * any 8 characters of them in a row, encoded or not) and credentials in their usual syntax
 * (`Bearer …`, `x-api-key: …`, cookies) are masked, so a pasted log never leaks a credential. The
 * last lines are kept for diagnostics and tests.
 */
export class RedactingLog implements vscode.Disposable {
  private readonly channel: vscode.LogOutputChannel;
  private readonly secrets = new Set<string>();
  private readonly recent: string[] = [];

  constructor(name: string) {
    this.channel = vscode.window.createOutputChannel(name, { log: true });
  }

  /** Registers a secret value to mask from now on. */
  addSecret(value: string | undefined): void {
    if (value) this.secrets.add(value);
  }

  /** The secret values registered so far, for other text that leaves the extension (exports, reports). */
  knownSecrets(): string[] {
    return [...this.secrets];
  }

  redact(text: string): string {
    return redactSecrets(text, [...this.secrets]);
  }

  trace(message: string): void {
    this.write('trace', message);
  }
  debug(message: string): void {
    this.write('debug', message);
  }
  info(message: string): void {
    this.write('info', message);
  }
  warn(message: string): void {
    this.write('warn', message);
  }
  error(message: string | Error): void {
    this.write('error', errorMessage(message));
  }

  show(): void {
    this.channel.show(true);
  }

  recentLines(): string[] {
    return [...this.recent];
  }

  dispose(): void {
    this.channel.dispose();
  }

  private write(level: 'trace' | 'debug' | 'info' | 'warn' | 'error', message: string): void {
    // One entry, one line: a server's or a file's text holding a line break cannot start a line that
    // reads as an entry of RL Studio's own (its breaks and control characters are shown escaped).
    const flat = escapeLineBreaks(message);
    const cut = flat.length > lineLimit ? `${flat.slice(0, lineLimit - 1)}…` : flat;
    const line = this.redact(cut);
    // The level prefix is a constant: it cannot complete a secret or an auth scheme.
    this.recent.push(`[${level}] ${line}`);
    if (this.recent.length > recentLimit) this.recent.splice(0, this.recent.length - recentLimit);
    this.channel[level](line);
  }
}
