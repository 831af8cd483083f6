import * as vscode from 'vscode';
import type { ChatCompletionRequest } from '../../platform/client/types';
import type { EvalModelRef } from '../model/evalModel';
import { EvalRun, type EvalRunInput, type ModelAnswer } from '../model/evalRun';
import { RegexMatcher } from '../../platform/scoring/regexMatcher';
import type { Services } from '../../platform/host/services';
import { featureSetting } from '../../platform/host/settings';
import type { AllowedPrograms } from './programAllowances';

/** Requests in flight at once, as the setting gives it within its bounds. */
export function evalConcurrency(): number {
  const value = featureSetting('evals.concurrency');
  return typeof value === 'number' && Number.isInteger(value) ? Math.min(64, Math.max(1, value)) : 8;
}

/**
 * An evaluation run wired to the extension: requests through the one client (checkpoints to the
 * training API, catalogue models to the inference API), judges through the same client, command
 * scorers only in a trusted workspace and only the `programs` allowed, and the results file written
 * where `file` says.
 */
export function createEvalRun(
  services: Services,
  input: Omit<EvalRunInput, 'concurrency'>,
  file: vscode.Uri,
  workspaceFolder: string,
  programs: AllowedPrograms,
  options: { beforeRequest?: () => void; afterAnswer?: (usage: { promptTokens: number; completionTokens: number }) => void; concurrency?: number } = {},
): { run: EvalRun; dispose(): void } {
  const regex = new RegexMatcher();
  const complete = async (model: Pick<EvalModelRef, 'api'>, request: ChatCompletionRequest, signal?: AbortSignal): Promise<ModelAnswer> => {
    // A budget that cannot pay for this request refuses it here, before anything is sent (answers and judges alike).
    options.beforeRequest?.();
    const client = await services.client();
    const side = model.api === 'training' ? client.training : client.inference;
    const reply = await side.chatCompletion({ ...request, stream: false }, signal ? { signal } : {});
    const choice = reply.choices[0];
    const usage = reply.usage ? { promptTokens: reply.usage.prompt_tokens ?? 0, completionTokens: reply.usage.completion_tokens ?? 0 } : undefined;
    if (usage) options.afterAnswer?.(usage);
    return { text: typeof choice?.message.content === 'string' ? choice.message.content : '', ...(choice?.finish_reason ? { finishReason: choice.finish_reason } : {}), ...(usage ? { usage } : {}) };
  };
  const run = new EvalRun(
    { ...input, concurrency: options.concurrency ?? evalConcurrency() },
    {
      complete: (model, request, signal) => complete(model, request, signal),
      scoring: {
        regex,
        complete: async (request, signal) => (await complete({ api: 'inference' }, request, signal)).text,
        command: { cwd: workspaceFolder, trusted: vscode.workspace.isTrusted, allowed: programs.identities },
      },
      save: async (text) => {
        await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(file, '..'));
        await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(text));
        // The file changed by the run's own hand: the programs allowed for it stay allowed.
        await programs.rewritten(text);
      },
      describeFailure: (error) => services.describeFailure(error).message,
    },
  );
  return { run, dispose: () => regex.dispose() };
}
