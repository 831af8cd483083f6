import * as vscode from 'vscode';
import { buildPageHtml, createNonce, type WebviewPageName } from './pageHtml';

/**
 * How every webview panel of the extension is set up, in one place: what its page may do and load,
 * and the page itself.
 *
 * - Scripts run (the page's own bundle, by nonce); command links do not.
 * - Files load only from media/, the folder that ships the pages' bundles and stylesheets.
 * - A hidden panel's page is unloaded, not kept alive: the page asks its panel for a fresh snapshot
 *   when it is shown again, and the work goes on in the extension meanwhile.
 */
export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return { enableScripts: true, enableCommandUris: false, localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'media')] };
}

/** The options of a new panel: its webview's, and whether the editor's find widget serves its text. */
export function panelOptions(extensionUri: vscode.Uri, { findWidget = false }: { findWidget?: boolean } = {}): vscode.WebviewPanelOptions & vscode.WebviewOptions {
  return { ...webviewOptions(extensionUri), retainContextWhenHidden: false, enableFindWidget: findWidget };
}

/**
 * Loads a page into a panel's webview, new or restored after a window reload (the options of a
 * restored panel are the ones it had, so they are set again): each load gets a fresh nonce.
 */
export function loadWebviewPage(webview: vscode.Webview, extensionUri: vscode.Uri, page: WebviewPageName, title: string): void {
  webview.options = webviewOptions(extensionUri);
  const media = vscode.Uri.joinPath(extensionUri, 'media');
  webview.html = buildPageHtml({
    page,
    title,
    cspSource: webview.cspSource,
    mediaUri: (path) => webview.asWebviewUri(vscode.Uri.joinPath(media, ...path.split('/'))).toString(),
    nonce: createNonce(),
  });
}
