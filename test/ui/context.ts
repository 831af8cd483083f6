/**
 * What a UI test gets. A UI test is an exported async function of a `*.ui.ts` module under test/ui/;
 * the functions of one module run in the order they are written, in one workbench page, so later
 * steps build on earlier ones (a failed step does not stop the next). Each module gets a fresh browser context (its own window, storage and
 * extension host) on the same code-server and emulator.
 */
import type { Page } from 'playwright-core';
import type { Emulator } from '../emulator/contract';

export interface UiTestContext {
  readonly page: Page;
  readonly emulator: Emulator;
  /** The folder the workbench has open (what a cloned repository would be). */
  readonly workspace: string;
  /** Saves a screenshot of the page under test-results/<stage>/<module>/ and returns its path. */
  screenshot(name: string): Promise<string>;
}

export type UiTest = (context: UiTestContext) => Promise<void>;
