/**
 * The webview type of job details panels, in a module of its own: activation registers their
 * serializer without loading the panels (package.json's onWebviewPanel event names it too).
 */
export const jobDetailsViewType = 'rlStudio.jobDetails';
