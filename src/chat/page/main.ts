import { ChatApp, type ChatViewState } from './app';
import { webviewApi } from '../../platform/pages/page/webviewApi';
import { errorMessage } from '../../platform/client/errorMessage';

const root = document.getElementById('app');
if (root) {
  const app = new ChatApp(root, webviewApi<ChatViewState>());
  // The extension's messages arrive as window messages; the protocol parser drops anything else.
  window.addEventListener('message', (event: MessageEvent) => app.receive(event.data));
  void app.start().catch((error: unknown) => {
    root.textContent = `The chat could not start: ${errorMessage(error)}`;
  });
}
