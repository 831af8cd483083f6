import * as vscode from 'vscode';
import { redactSecrets } from '../api/redact';

const recentLimit = 500;

/**
 * The "RL Studio" log channel. Every line passes through redaction first: the values of the
 * secrets the extension knows (API key, webhook tokens) and anything after "Bearer " are masked,
 * so a pasted log never leaks a credential. The last lines are kept for diagnostics and tests.
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

  redact(text: string): string {
    return redactSecrets(text, [...this.secrets]);
  }

  trace(message: string): void { this.write('trace', message); }
  debug(message: string): void { this.write('debug', message); }
  info(message: string): void { this.write('info', message); }
  warn(message: string): void { this.write('warn', message); }
  error(message: string | Error): void { this.write('error', message instanceof Error ? message.message : message); }

  show(): void { this.channel.show(true); }

  recentLines(): string[] { return [...this.recent]; }

  dispose(): void { this.channel.dispose(); }

  private write(level: 'trace' | 'debug' | 'info' | 'warn' | 'error', message: string): void {
    const line = this.redact(message);
    this.recent.push(`[${level}] ${line}`);
    if (this.recent.length > recentLimit) this.recent.splice(0, this.recent.length - recentLimit);
    this.channel[level](line);
  }
}
