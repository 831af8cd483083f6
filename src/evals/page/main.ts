import type { EvalReportViewState } from './viewState';
import { webviewApi } from '../../platform/pages/page/webviewApi';
import { EvalReportPage } from './evalReportPage';
import { errorMessage } from '../../platform/client/errorMessage';

const root = document.getElementById('app');
if (root) {
  const page = new EvalReportPage(root, webviewApi<EvalReportViewState>());
  // The extension's messages arrive as window messages; the protocol parser drops anything else.
  window.addEventListener('message', (event: MessageEvent) => page.receive(event.data));
  void page.load().catch((error: unknown) => {
    const problem = document.createElement('p');
    problem.className = 'problem';
    problem.textContent = `The report could not load: ${errorMessage(error)}`;
    root.prepend(problem);
  });
}
