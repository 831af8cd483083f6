import * as vscode from 'vscode';
import type { PayloadDiagnostic } from '../../model/payload';
import { KeyedDebounce } from '../../../platform/kit/debounce';
import { clampDiagnosticsDelay } from '../../model/payload/diagnosticsDelay';
import { affectsFeatureSettings, editorValidatesJson, featureSetting } from '../../../platform/host/settings';
import { payloadCore } from './payloadCore';
import { toRange, type PayloadDocuments } from './payloadDocuments';

export const diagnosticSource = 'RL Studio payload';

/**
 * Runs the core diagnostics a short while after the last change (the delay is a setting), and
 * again when what they depend on changes: the chosen webhook, the webhooks themselves, settings.
 */
export class PayloadDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('rl-payload');
  private readonly pending = new KeyedDebounce<string>();
  private readonly latest = new Map<string, { version: number; diagnostics: PayloadDiagnostic[] }>();
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly documents: PayloadDocuments) {
    this.subscriptions = [
      vscode.workspace.onDidOpenTextDocument((document) => this.schedule(document, 0)),
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (event.contentChanges.length > 0) this.schedule(event.document, delay());
      }),
      vscode.workspace.onDidCloseTextDocument((document) => this.forget(document.uri)),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (affectsFeatureSettings(event, 'payload') || event.affectsConfiguration('json.validate')) this.refreshAll();
      }),
    ];
    for (const document of vscode.workspace.textDocuments) this.schedule(document, 0);
  }

  refreshAll(): void {
    for (const document of vscode.workspace.textDocuments) this.schedule(document, 0);
  }

  /** The core diagnostics of the document's current version (computed now if not yet). */
  diagnosticsOf(document: vscode.TextDocument): PayloadDiagnostic[] {
    const key = document.uri.toString();
    const latest = this.latest.get(key);
    if (latest && latest.version === document.version) return latest.diagnostics;
    return this.run(document) ?? [];
  }

  dispose(): void {
    this.pending.dispose();
    for (const subscription of this.subscriptions) subscription.dispose();
    this.collection.dispose();
  }

  private schedule(document: vscode.TextDocument, wait: number): void {
    const key = document.uri.toString();
    this.pending.cancel(key);
    if (!this.documents.analysisOf(document)) {
      if (this.collection.has(document.uri)) this.forget(document.uri);
      return;
    }
    this.pending.schedule(key, wait, () => this.run(document));
  }

  private run(document: vscode.TextDocument): PayloadDiagnostic[] | undefined {
    if (document.isClosed) return undefined;
    const analysis = this.documents.analysisOf(document);
    if (!analysis) return undefined;
    const webhook = this.documents.webhooks.secretNamesFor(document, analysis);
    const diagnostics = payloadCore().diagnose(analysis, { webhook, skipSyntaxErrors: !reportSyntaxErrors() });
    this.latest.set(document.uri.toString(), { version: document.version, diagnostics });
    this.collection.set(
      document.uri,
      diagnostics.map((diagnostic) => toVscode(document, diagnostic)),
    );
    return diagnostics;
  }

  private forget(uri: vscode.Uri): void {
    const key = uri.toString();
    this.pending.cancel(key);
    this.latest.delete(key);
    this.collection.delete(uri);
  }
}

function toVscode(document: vscode.TextDocument, diagnostic: PayloadDiagnostic): vscode.Diagnostic {
  const severity = diagnostic.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning;
  const result = new vscode.Diagnostic(toRange(document, diagnostic.start, diagnostic.end), diagnostic.message, severity);
  result.source = diagnosticSource;
  result.code = diagnostic.code;
  return result;
}

function delay(): number {
  return clampDiagnosticsDelay(featureSetting('payload.diagnosticsDelayMs'));
}

/**
 * The built-in JSON validator already reports syntax errors in payload and automation files; ours
 * would repeat each one. "auto" leaves them to it while it is enabled.
 */
function reportSyntaxErrors(): boolean {
  const mode = featureSetting('payload.jsonSyntaxErrors');
  if (mode === 'always') return true;
  if (mode === 'never') return false;
  const builtInJson = vscode.extensions.getExtension('vscode.json-language-features');
  return !builtInJson || !editorValidatesJson();
}
