import * as vscode from 'vscode';
import { KeyedDebounce } from '../../../platform/kit/debounce';
import { payloadCore } from './payloadCore';
import type { PayloadDocuments } from './payloadDocuments';

export const previewScheme = 'rl-payload-preview';

/** An open preview is rendered again once edits of its source pause this long. */
const rerenderDelayMs = 150;

/**
 * The rendered payload as a read-only JSON document beside its source: the sample event's values
 * substituted, secrets masked, refreshed as the source or the sample changes. A rendering that is
 * not valid JSON gets an error diagnostic where the JSON breaks.
 */
export class PayloadPreview implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly problems = vscode.languages.createDiagnosticCollection('rl-payload-preview');
  private readonly open = new Map<string, vscode.Uri>();
  private readonly pending = new KeyedDebounce<string>();
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly documents: PayloadDocuments) {
    this.subscriptions = [
      vscode.workspace.onDidChangeTextDocument((event) => this.sourceChanged(event.document.uri)),
      vscode.workspace.onDidCloseTextDocument((document) => {
        if (document.uri.scheme !== previewScheme) return;
        this.open.delete(sourceOf(document.uri).toString());
        this.problems.delete(document.uri);
      }),
    ];
  }

  static uriFor(source: vscode.Uri): vscode.Uri {
    const base = source.path.split('/').pop() || 'payload.json';
    const name = base.replace(/(\.(payload|automation))?\.json$/i, '') + '.rendered.json';
    return vscode.Uri.from({ scheme: previewScheme, path: `/${name}`, query: source.toString() });
  }

  async show(source: vscode.Uri): Promise<vscode.TextEditor> {
    const uri = PayloadPreview.uriFor(source);
    this.open.set(source.toString(), uri);
    const document = await vscode.workspace.openTextDocument(uri);
    return vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside, preview: true, preserveFocus: true });
  }

  /** Re-renders every open preview (the sample event or the webhooks changed). */
  refreshAll(): void {
    for (const uri of this.open.values()) this.changed.fire(uri);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const source = vscode.workspace.textDocuments.find((document) => document.uri.toString() === sourceOf(uri).toString());
    this.open.set(sourceOf(uri).toString(), uri);
    if (!source) {
      this.problems.delete(uri);
      return '// The source file is closed. Open it and run "Preview Payload" again.\n';
    }
    const analysis = this.documents.analysisOf(source);
    if (!analysis) return '// This file is neither a payload nor an automation.\n';
    const rendered = payloadCore().renderPayload(analysis, {
      sample: this.documents.samples.sampleFor(source, analysis),
      webhook: this.documents.webhooks.secretNamesFor(source, analysis),
      maskSecrets: true,
    });
    const diagnostics: vscode.Diagnostic[] = [];
    if (rendered.invalid) {
      const at = positionIn(rendered.text, rendered.invalid.offset);
      diagnostics.push(new vscode.Diagnostic(new vscode.Range(at, at.translate(0, 1)), rendered.invalid.message, vscode.DiagnosticSeverity.Error));
    }
    // A variable left as written is never silent: each place it stands is marked, saying why.
    for (const { offset, name } of unresolvedPlaces(rendered.text, rendered.unresolved)) {
      const at = positionIn(rendered.text, offset);
      diagnostics.push(
        new vscode.Diagnostic(
          new vscode.Range(at, at.translate(0, name.length + 3)),
          `\${${name}} is not rendered: no such variable, or a secret with no stored value. A test sends it as written.`,
          vscode.DiagnosticSeverity.Warning,
        ),
      );
    }
    for (const diagnostic of diagnostics) diagnostic.source = 'RL Studio preview';
    if (diagnostics.length > 0) this.problems.set(uri, diagnostics);
    else this.problems.delete(uri);
    return rendered.text;
  }

  dispose(): void {
    this.pending.dispose();
    for (const subscription of this.subscriptions) subscription.dispose();
    this.problems.dispose();
    this.changed.dispose();
  }

  private sourceChanged(source: vscode.Uri): void {
    const preview = this.open.get(source.toString());
    if (!preview) return;
    this.pending.schedule(source.toString(), rerenderDelayMs, () => this.changed.fire(preview));
  }
}

function sourceOf(previewUri: vscode.Uri): vscode.Uri {
  return vscode.Uri.parse(previewUri.query);
}

/** Places marked in a preview at most: enough to find each variable, never a flood. */
const maxMarkedPlaces = 200;

/** Where each variable left as written stands in the rendered text, in order, up to the bound. */
function unresolvedPlaces(text: string, names: readonly string[]): { offset: number; name: string }[] {
  const places: { offset: number; name: string }[] = [];
  for (const name of names) {
    const written = `\${${name}}`;
    for (let at = text.indexOf(written); at >= 0 && places.length < maxMarkedPlaces; at = text.indexOf(written, at + written.length)) places.push({ offset: at, name });
  }
  return places.sort((a, b) => a.offset - b.offset);
}

/** The position of an offset in text the editor has not opened yet (the preview being produced). */
function positionIn(text: string, offset: number): vscode.Position {
  let line = 0;
  let lineStart = 0;
  for (let at = text.indexOf('\n'); at >= 0 && at < offset; at = text.indexOf('\n', at + 1)) {
    line++;
    lineStart = at + 1;
  }
  return new vscode.Position(line, offset - lineStart);
}
