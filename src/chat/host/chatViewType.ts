/**
 * The webview type of the chat panel, in a module of its own: activation registers its serializer
 * without loading the chat (package.json's onWebviewPanel event names it too).
 */
export const chatViewType = 'rlStudio.chat';
