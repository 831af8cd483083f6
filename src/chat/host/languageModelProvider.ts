import * as vscode from 'vscode';
import { errorMessage } from '../../platform/client/errorMessage';
import { estimateTokens, requestOptionsFrom, toChatMessages } from '../model/languageModelMessages';
import { cutNotice, maxAnswerChars, maxReasoningChars } from '../model/limits';
import { apiForModel } from '../../platform/kit/modelIds';
import { languageModelFailure, planPickerModels, planSummary, pickerModelsSettingName, type LanguageModelFailureKind } from '../model/pickerModels';
import { runStream } from '../model/streamRun';
import type { ChatCompletionChunk } from '../../platform/client/types';
import type { Services } from '../../platform/host/services';
import { signalFor } from '../../platform/host/cancellationSignal';
import { affectsFeatureSettings, featureSetting } from '../../platform/host/settings';

/**
 * The editor's model information with `isUserSelectable`, which the editor reads (whether the model
 * is offered in its picker) although the typings of the oldest editor RL Studio supports lack it.
 */
type PickerModelInformation = vscode.LanguageModelChatInformation & { readonly isUserSelectable?: boolean };

/**
 * Part of dist/chat.js (exported by the chat's index.ts): the inference catalogue and the pinned checkpoints in VS Code's
 * own chat model picker, loaded when the editor first asks for the models
 * (languageModelRegistration.ts registers it). Which models the picker offers, their limits and
 * the kinds of their failures are decided in src/chat/model/pickerModels.ts.
 */
export class PlatformLanguageModels implements vscode.LanguageModelChatProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeLanguageModelChatInformation = this.changed.event;
  private readonly subscription: vscode.Disposable;
  /** What the picker offered last, so that it is logged once per change. */
  private lastSummary: string | undefined;

  constructor(private readonly services: Services) {
    const changed = () => this.changed.fire();
    this.subscription = vscode.Disposable.from(
      services.onDidChangeConnection(changed),
      services.remembered.pinned.onDidChange(changed),
      // A pinned checkpoint's limits come from its training model's base model.
      services.remembered.models.onDidChange(changed),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (affectsFeatureSettings(event, 'languageModels')) changed();
      }),
    );
  }

  async provideLanguageModelChatInformation(options: vscode.PrepareLanguageModelChatModelOptions, token: vscode.CancellationToken): Promise<PickerModelInformation[]> {
    if (!this.services.settings.current.inferenceApiUrl) return [];
    if (!(await this.services.credentials.isSignedIn())) {
      if (!options.silent) await vscode.commands.executeCommand('rlStudio.signIn');
      if (!(await this.services.credentials.isSignedIn())) return [];
    }
    const abort = signalFor(token);
    try {
      const client = await this.services.client();
      const list = await client.inference.listModels({ signal: abort.signal });
      const plan = planPickerModels({
        catalogue: list.data,
        pinned: this.services.remembered.pinned.list(),
        trainingModels: this.services.remembered.models.list(),
        patterns: featureSetting(pickerModelsSettingName),
      });
      const summary = planSummary(plan);
      // Said once per change, not every time the editor asks.
      if (summary !== this.lastSummary) this.services.log.info(summary);
      this.lastSummary = summary;
      // The platform's streamed tool calls are not mapped yet, and it takes no images.
      return plan.models.map(({ contextTokens: _context, ...model }) => ({ ...model, capabilities: { imageInput: false, toolCalling: false } }));
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
    const abort = signalFor(token);
    // The client's own error, which runStream turns into words: the editor needs its kind.
    let thrown: unknown;
    let failure: unknown;
    async function* remembering(stream: AsyncIterable<ChatCompletionChunk>): AsyncGenerator<ChatCompletionChunk> {
      try {
        yield* stream;
      } catch (error) {
        thrown = error;
        throw error;
      }
    }
    try {
      const client = await this.services.client();
      const side = apiForModel(model.id) === 'training' ? client.training : client.inference;
      const stream = side.streamChatCompletion(
        { model: model.id, messages: toChatMessages(messages), ...requestOptionsFrom(options.modelOptions), stream: true, stream_options: { include_usage: true } },
        { signal: abort.signal },
      );
      const outcome = await runStream(remembering(stream), {
        signal: abort.signal,
        onDelta: (content) => {
          if (content) progress.report(new vscode.LanguageModelTextPart(content));
        },
        // The same limit as the RL Studio chat: a runaway answer is stopped, not passed on forever.
        limits: { content: maxAnswerChars, reasoning: maxReasoningChars },
        onLimit: () => abort.abort(),
      });
      if (outcome.cut) progress.report(new vscode.LanguageModelTextPart(`\n\n[${cutNotice(outcome.cut)}]`));
      // Only an answer that ended in error fails: one stopped by the editor, even by a late abort error, does not.
      if (outcome.status === 'error') failure = thrown ?? new Error(outcome.error?.message ?? 'the request failed');
    } catch (error) {
      // The client could not start (signed out, no address): the same words as a failed request.
      failure = error;
    } finally {
      abort.dispose();
    }
    if (failure !== undefined) throw this.editorError(failure, model.id);
  }

  /** The editor's kind of failure for a platform error, its message leading with what happened and what to do. */
  private editorError(error: unknown, modelId: string): Error {
    const failure = languageModelFailure(error, { describe: (cause) => this.services.describeFailure(cause), redact: (text) => this.services.log.redact(text) });
    this.services.log.warn(`a request to ${modelId} from the editor's chat failed: ${failure.message}`);
    return editorErrors[failure.kind](failure.message);
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

const editorErrors: Readonly<Record<LanguageModelFailureKind, (message: string) => Error>> = {
  noPermissions: (message) => vscode.LanguageModelError.NoPermissions(message),
  notFound: (message) => vscode.LanguageModelError.NotFound(message),
  blocked: (message) => vscode.LanguageModelError.Blocked(message),
  other: (message) => new Error(message),
};
