/**
 * A cloned repository's `.vscode/settings.json` names its own API addresses, in the packaged
 * extension as a user runs it: RL Studio asks before sending the key there, keeps using the user's
 * own server meanwhile, and only after "Allow" does the repository's server see the key.
 */
import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { startRecordingServer, type RecordingServer } from '../fault/support/trustServer';
import type { UiTestContext } from './context';
import { ensureSignedIn, notificationMessages, openViewContainer, runCommand, waitForText, waitForViewRows } from './workbench';

let server: RecordingServer | undefined;

const questionOf = (url: string) => `This workspace sets the training and inference APIs to ${url}. Send your RL Studio API key there?`;

function settingsFile(workspace: string): string {
  return join(workspace, '.vscode', 'settings.json');
}

/** The messages of the notification center, shown again each time (something else may have closed it). */
async function notificationTexts(page: Page): Promise<string> {
  return (await notificationMessages(page)).join('\n');
}

/**
 * The repository's settings naming its own server, and RL Studio's question about it shown: made
 * unless an earlier step made them already.
 */
async function repositoryAddressesAsked({ page, workspace }: UiTestContext): Promise<RecordingServer> {
  if (!server) {
    server = await startRecordingServer();
    mkdirSync(join(workspace, '.vscode'), { recursive: true });
    writeFileSync(settingsFile(workspace), JSON.stringify({ 'rlStudio.trainingApiUrl': server.trainingUrl, 'rlStudio.inferenceApiUrl': server.inferenceUrl }, null, 2));
  }
  await openViewContainer(page, 'RL Studio');
  const question = questionOf(server.url);
  await waitForText(() => notificationTexts(page), new RegExp(question.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')), 30_000);
  return server;
}

export async function asksBeforeUsingTheAddressesTheRepositorySets(context: UiTestContext): Promise<void> {
  const repository = await repositoryAddressesAsked(context);
  await context.screenshot('workspace-addresses-question');
  assert.deepEqual(repository.calls, [], "requests to the repository's server before any answer");
}

export async function keepsUsingTheUsersOwnServerMeanwhile(context: UiTestContext): Promise<void> {
  const { page, emulator, screenshot } = context;
  const repository = await repositoryAddressesAsked(context);
  await ensureSignedIn(page, emulator.apiKey, emulator.seeded?.inferenceModels ?? []);
  await screenshot('own-server-in-use');
  assert.deepEqual(
    repository.calls.map((call) => `${call.method} ${call.path}`),
    [],
    "requests to the repository's server before it was allowed",
  );
  assert.equal(repository.sockets.opened, 0);
}

export async function sendsTheKeyThereOnceAllowed(context: UiTestContext): Promise<void> {
  const { page, emulator, screenshot } = context;
  const repository = await repositoryAddressesAsked(context);
  await ensureSignedIn(page, emulator.apiKey, emulator.seeded?.inferenceModels ?? []);
  await runCommand(page, 'Notifications: Show Notifications');
  const item = page.locator('.notifications-center .notification-list-item').filter({ hasText: 'Send your RL Studio API key there?' }).first();
  await item
    .locator('.monaco-button')
    .filter({ hasText: /^Allow$/ })
    .first()
    .click();
  await repository.waitFor('the key at the allowed origin', () => repository.calls.some((call) => call.path === '/inference/v1/models' && call.authorization === `Bearer ${emulator.apiKey}`), 30_000);
  await waitForViewRows(page, 'Models', (rows) => rows.some((row) => row.startsWith('recorded-model')));
  await screenshot('repository-server-allowed');
}

export async function removesTheRepositorySettings({ workspace }: UiTestContext): Promise<void> {
  rmSync(settingsFile(workspace), { force: true });
  await server?.close();
  server = undefined;
}
