import type { RolloutsViewState } from './rolloutsProtocol';
import { webviewApi } from '../common/webviewApi';
import { RolloutsPage } from './rolloutsPage';
import { errorMessage } from '../../api/errorMessage';

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
