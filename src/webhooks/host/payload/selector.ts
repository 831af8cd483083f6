import type * as vscode from 'vscode';
import type { PayloadDocumentKind } from '../../model/payload';

export const payloadLanguageId = 'rl-payload';

/** Payload templates by language (any file may be switched to it), automations by name whatever their language. */
export const payloadSelector: vscode.DocumentSelector = [{ language: payloadLanguageId }, { pattern: '**/*.automation.json' }];

export function payloadKindOf(document: vscode.TextDocument): PayloadDocumentKind | undefined {
  if (/\.automation\.json$/i.test(document.uri.path)) return 'automation';
  if (document.languageId === payloadLanguageId) return 'payload';
  return undefined;
}
