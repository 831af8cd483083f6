import type { ChatCompletionChunk, ChatCompletionRequest, PlatformApi } from '../../platform/client/types';
import type { Conversation } from './conversationTypes';
import type { ModelCatalogue } from './modelOptions';
import type { ExportFormat } from '../protocol';

/**
 * What the chat needs from outside, as interfaces: the chat's logic stays free of the platform
 * client and of VS Code, and tests put fakes in their place.
 */

/** The platform as the chat needs it: a streamed completion on the right API, and the model list. */
export interface ChatBackend {
  stream(request: ChatCompletionRequest, api: PlatformApi, signal: AbortSignal): AsyncIterable<ChatCompletionChunk>;
  listModels(): Promise<ModelCatalogue>;
}

/** What the editor does for the chat: native dialogs, clipboard, editor, browser. */
export interface ChatUi {
  askTitle(current: string): Promise<string | undefined>;
  confirmDelete(title: string): Promise<boolean>;
  exportConversation(conversation: Conversation, format?: ExportFormat): Promise<boolean>;
  copyText(text: string): Promise<void>;
  insertText(text: string): Promise<void>;
  /** Opens an http(s) address in the user's browser; already checked against externalLinks.ts. */
  openExternal(url: string): Promise<boolean>;
  runAction(action: 'signIn' | 'configure' | 'showLog'): Promise<void>;
}
