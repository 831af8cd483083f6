import type { RolloutsViewState } from '../protocol';
import { webviewApi } from '../../platform/pages/page/webviewApi';
import { RolloutsPage } from './rolloutsPage';
import { errorMessage } from '../../platform/client/errorMessage';

const root = document.getElementById('app');
if (root) {
  const page = new RolloutsPage(root, webviewApi<RolloutsViewState>());
  // The extension's messages arrive as window messages; the protocol parser drops anything else.
  window.addEventListener('message', (event: MessageEvent) => page.receive(event.data));
  void page.load().catch((error: unknown) => {
    const problem = document.createElement('p');
    problem.className = 'problem';
    problem.textContent = `The rollouts could not load: ${errorMessage(error)}`;
    root.prepend(problem);
  });
}
