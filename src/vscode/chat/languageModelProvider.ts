import * as vscode from 'vscode';
import { errorMessage } from '../../api/errorMessage';
import { estimateTokens, requestOptionsFrom, toChatMessages } from '../../chat/languageModelMessages';
import { cutNotice, maxAnswerChars, maxReasoningChars } from '../../chat/limits';
import { apiForModel, shortModelLabel } from '../../chat/modelIds';
import { runStream } from '../../chat/streamRun';
import { parseCheckpointModelId } from '../../core/checkpointIds';
import type { Services } from '../platform/services';

/** What the platform does not say about its models; conservative so the editor trims context early. */
const assumedLimits = { maxInputTokens: 32_768, maxOutputTokens: 8_192 };

/**
 * Entry of dist/languageModels.js: the inference catalogue in VS Code's own chat model picker,
 * loaded when the editor first asks for the models (languageModelRegistration.ts registers it).
 */
export class PlatformLanguageModels implements vscode.LanguageModelChatProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeLanguageModelChatInformation = this.changed.event;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly services: Services) {
    const changed = () => this.changed.fire();
    this.subscription = vscode.Disposable.from(services.onDidChangeConnection(changed), services.remembered.pinned.onDidChange(changed));
  }

  async provideLanguageModelChatInformation(options: vscode.PrepareLanguageModelChatModelOptions, token: vscode.CancellationToken): Promise<vscode.LanguageModelChatInformation[]> {
    if (!this.services.settings.current.inferenceApiUrl) return [];
    if (!(await this.services.credentials.isSignedIn())) {
      if (!options.silent) await vscode.commands.executeCommand('rlStudio.signIn');
      if (!(await this.services.credentials.isSignedIn())) return [];
    }
    const abort = abortOn(token);
    try {
      const client = await this.services.client();
      const list = await client.inference.listModels({ signal: abort.signal });
      // Checkpoints pinned after an evaluation come first: the training API serves them.
      const pinned = this.services.remembered.pinned.list().map((pin) => ({
        id: pin.id,
        name: shortModelLabel(pin.id),
        family: parseCheckpointModelId(pin.id)?.name ?? pin.id,
        version: pin.pinnedAt,
        detail: 'RL Studio, pinned',
        tooltip: `${pin.id}, pinned in RL Studio and served by the training API`,
        ...assumedLimits,
        capabilities: { imageInput: false, toolCalling: false },
      }));
      return [
        ...pinned,
        ...list.data.map((model) => ({
          id: model.id,
          name: model.id.split('/').at(-1) ?? model.id,
          family: model.root ?? model.id,
          version: String(model.created ?? ''),
          detail: 'RL Studio',
          tooltip: `${model.id}, served by the RL Studio inference API`,
          ...assumedLimits,
          capabilities: { imageInput: false, toolCalling: false },
        })),
      ];
    } catch (error) {
      this.services.log.warn(`listing models for the editor's chat failed: ${errorMessage(error)}`);
      return [];
    } finally {
      abort.dispose();
    }
  }

  async provideLanguageModelChatResponse(
    model: vscode.LanguageModelChatInformation,
    messages: readonly vscode.LanguageModelChatRequestMessage[],
    options: vscode.ProvideLanguageModelChatResponseOptions,
    progress: vscode.Progress<vscode.LanguageModelResponsePart>,
    token: vscode.CancellationToken,
  ): Promise<void> {
    const abort = abortOn(token);
    try {
      const client = await this.services.client();
      const side = apiForModel(model.id) === 'training' ? client.training : client.inference;
      const stream = side.streamChatCompletion(
        { model: model.id, messages: toChatMessages(messages), ...requestOptionsFrom(options.modelOptions), stream: true, stream_options: { include_usage: true } },
        { signal: abort.signal },
      );
      const outcome = await runStream(stream, {
        signal: abort.signal,
        onDelta: (content) => {
          if (content) progress.report(new vscode.LanguageModelTextPart(content));
        },
        // The same limit as the RL Studio chat: a runaway answer is stopped, not passed on forever.
        limits: { content: maxAnswerChars, reasoning: maxReasoningChars },
        onLimit: () => abort.abort(),
      });
      if (outcome.cut) progress.report(new vscode.LanguageModelTextPart(`\n\n[${cutNotice(outcome.cut)}]`));
      if (outcome.status === 'error') throw new Error(outcome.error?.message ?? 'the request failed');
    } finally {
      abort.dispose();
    }
  }

  async provideTokenCount(_model: vscode.LanguageModelChatInformation, text: string | vscode.LanguageModelChatRequestMessage): Promise<number> {
    return estimateTokens(
      typeof text === 'string'
        ? text
        : toChatMessages([text])
            .map((message) => message.content)
            .join('\n'),
    );
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}

function abortOn(token: vscode.CancellationToken): { signal: AbortSignal; abort(): void; dispose(): void } {
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort();
  const subscription = token.onCancellationRequested(() => controller.abort());
  return { signal: controller.signal, abort: () => controller.abort(), dispose: () => void subscription.dispose() };
}
