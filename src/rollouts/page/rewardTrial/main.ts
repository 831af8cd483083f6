import { errorMessage } from '../../../platform/client/errorMessage';
import { webviewApi } from '../../../platform/pages/page/webviewApi';
import { RewardTrialPage } from './rewardTrialPage';

const root = document.getElementById('app');
if (root) {
  const page = new RewardTrialPage(root, webviewApi<{ openGroup?: number }>());
  // The extension's messages arrive as window messages; the protocol parser drops anything else.
  window.addEventListener('message', (event: MessageEvent) => page.receive(event.data));
  void page.load().catch((error: unknown) => {
    const problem = document.createElement('p');
    problem.className = 'problem';
    problem.textContent = `The comparison could not load: ${errorMessage(error)}`;
    root.prepend(problem);
  });
}
