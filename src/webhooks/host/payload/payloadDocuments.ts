import * as vscode from 'vscode';
import type { PayloadAnalysis, PayloadCompletions, PayloadContext } from '../../model/payload';
import { payloadCore } from './payloadCore';
import type { MetadataKeyIndex } from './metadataKeyIndex';
import type { SampleEvents } from './sampleEvents';
import { payloadKindOf } from './selector';
import type { WebhookChoice } from './webhookChoice';

/**
 * Analyses each payload document once per version and hands the same analysis to completion,
 * hover, diagnostics, code lenses and the preview.
 */
export class PayloadDocuments implements vscode.Disposable {
  private readonly cache = new Map<string, { version: number; analysis: PayloadAnalysis }>();
  private readonly subscription = vscode.workspace.onDidCloseTextDocument((document) => this.cache.delete(document.uri.toString()));

  constructor(
    readonly webhooks: WebhookChoice,
    readonly samples: SampleEvents,
    readonly metadataKeys: MetadataKeyIndex,
  ) {}

  analysisOf(document: vscode.TextDocument): PayloadAnalysis | undefined {
    const kind = payloadKindOf(document);
    if (!kind) return undefined;
    const key = document.uri.toString();
    const cached = this.cache.get(key);
    if (cached && cached.version === document.version && cached.analysis.kind === kind) return cached.analysis;
    const core = payloadCore();
    // A document too large to analyse is recognised from its length, without copying its text.
    const length = lengthOf(document);
    const analysis = length > core.maxAnalysedLength ? core.tooLargeAnalysis(kind, length) : core.analysePayload(document.getText(), kind);
    this.cache.set(key, { version: document.version, analysis });
    return analysis;
  }

  /**
   * Completion at `offset`. After a keystroke the analysis of an earlier version usually suffices
   * (the edit stayed inside one string), so a large payload is not analysed again on every key;
   * otherwise the current version is analysed as for every other feature.
   */
  completionsAt(document: vscode.TextDocument, offset: number): PayloadCompletions | undefined {
    const kind = payloadKindOf(document);
    if (!kind) return undefined;
    const core = payloadCore();
    const cached = this.cache.get(document.uri.toString());
    // Only a payload's edits are followed (an automation is small); a context worked out from the
    // earlier analysis is the current one whenever the edit stayed inside one of its strings.
    if (cached && cached.version !== document.version && kind === 'payload' && cached.analysis.kind === kind && lengthOf(document) <= core.maxAnalysedLength) {
      const edited = core.completeAfterEdit(cached.analysis, document.getText(), offset, this.contextOf(document, cached.analysis));
      if (edited) return edited.completions;
    }
    const analysis = this.analysisOf(document)!;
    return core.complete(analysis, offset, this.contextOf(document, analysis));
  }

  contextOf(document: vscode.TextDocument, analysis: PayloadAnalysis): PayloadContext {
    const context: PayloadContext = {
      sample: this.samples.sampleFor(document, analysis),
      metadataKeys: this.metadataKeys.keys(),
    };
    const webhook = this.webhooks.secretNamesFor(document, analysis);
    if (webhook) context.webhook = webhook;
    return context;
  }

  dispose(): void {
    this.subscription.dispose();
    this.cache.clear();
  }
}

function lengthOf(document: vscode.TextDocument): number {
  return document.offsetAt(document.lineAt(document.lineCount - 1).range.end);
}

export function toRange(document: vscode.TextDocument, start: number, end: number): vscode.Range {
  return new vscode.Range(document.positionAt(start), document.positionAt(end));
}
