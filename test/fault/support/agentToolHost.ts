/**
 * RL Studio's language-model tools in Node, as VS Code drives them (prepareInvocation, the person
 * says yes, invoke), against a real platform client: just enough of the `vscode` module for the tool
 * modules (workspace folders, URIs, result parts), and services that know the models a case names.
 * The tool modules are loaded once, with this stand-in; each case sets its own workspace folder.
 */
import Module from 'node:module';
import * as path from 'node:path';
import type * as vscode from 'vscode';
import { PlatformClient } from '../../../src/platform/client';
import type { TrainingModel } from '../../../src/platform/client/types';
import type { Services } from '../../../src/platform/host/services';

type ToolModules = typeof import('../../../src/platform/agent/agentTool') & typeof import('../../../src/training/host/tools/trainingTools');

let folder: string | undefined;

class LanguageModelTextPart {
  constructor(public value: string) {}
}

class LanguageModelToolResult {
  constructor(public content: unknown[]) {}
}

function fileUri(fsPath: string) {
  return { fsPath, path: fsPath, scheme: 'file', toString: () => `file://${fsPath}` };
}

const standIn = {
  Uri: { file: fileUri },
  workspace: {
    get workspaceFolders() {
      return folder ? [{ uri: fileUri(folder), name: path.basename(folder), index: 0 }] : undefined;
    },
    asRelativePath: (uri: { fsPath: string }) => (folder ? path.relative(folder, uri.fsPath).split(path.sep).join('/') : uri.fsPath),
  },
  commands: { executeCommand: async () => undefined },
  LanguageModelTextPart,
  LanguageModelToolResult,
};

let modules: ToolModules | undefined;

/** The tool modules, loaded with the stand-in as their `vscode`. */
export function toolModules(): ToolModules {
  if (modules) return modules;
  const internals = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
  const originalLoad = internals._load;
  internals._load = function load(request: string, ...rest: unknown[]) {
    return request === 'vscode' ? standIn : originalLoad.call(this, request, ...rest);
  };
  try {
    modules = {
      ...(require('../../../src/platform/agent/agentTool') as object),
      ...(require('../../../src/training/host/tools/trainingTools') as object),
    } as ToolModules;
  } finally {
    internals._load = originalLoad;
  }
  return modules;
}

/** The workspace folder the tools read from. */
export function useWorkspaceFolder(fsPath: string | undefined): void {
  folder = fsPath;
}

/** Services as the tools use them: this platform, signed in, knowing `models`; the key masked in every text that leaves. */
export function toolServices(platform: { trainingUrl: string; inferenceUrl: string; apiKey: string }, models: readonly TrainingModel[]): Services {
  const client = new PlatformClient({ trainingUrl: platform.trainingUrl, inferenceUrl: platform.inferenceUrl, credentials: { getApiKey: async () => platform.apiKey }, maxRetries: 0 });
  const services = {
    settings: { current: { trainingApiUrl: platform.trainingUrl, inferenceApiUrl: platform.inferenceUrl, project: '' } },
    credentials: { isSignedIn: async () => true },
    log: { redact: (text: string) => text.split(platform.apiKey).join('[redacted]'), info: () => undefined, warn: () => undefined },
    describeFailure: (error: unknown) => ({ message: error instanceof Error ? error.message : String(error) }),
    lifetime: new AbortController().signal,
    client: async () => client,
    remembered: {
      models: { get: (id: string) => models.find((model) => model.id === id), list: () => models },
      jobs: { add: async () => undefined, list: () => [] },
    },
  };
  return services as unknown as Services;
}

export const noCancellation = { isCancellationRequested: false, onCancellationRequested: () => ({ dispose: () => undefined }) } as unknown as vscode.CancellationToken;

/** What prepareInvocation shows: the title and the message, as one text. */
export async function confirmationOf(tool: vscode.LanguageModelTool<Record<string, unknown>>, input: Record<string, unknown>): Promise<string> {
  const prepared = await tool.prepareInvocation!({ input }, noCancellation);
  const messages = prepared?.confirmationMessages;
  if (!messages) throw new Error('the tool did not ask first');
  return `${messages.title}\n${typeof messages.message === 'string' ? messages.message : messages.message.value}`;
}

/** The text of invoke's result. */
export async function invoked(tool: vscode.LanguageModelTool<Record<string, unknown>>, input: Record<string, unknown>): Promise<string> {
  const result = (await tool.invoke({ input, toolInvocationToken: undefined } as never, noCancellation)) as unknown as LanguageModelToolResult;
  return result.content.map((part) => (part instanceof LanguageModelTextPart ? part.value : '')).join('');
}
