/** Finding the UI tests: every `*.ui.js` module under a folder, and its exported test functions in written order. */
import { readFileSync } from 'node:fs';
import { filesEndingWith } from '../support/files';
import type { UiTest } from './context';

export interface NamedTest {
  /** The function's name in words: `signsInWithTheKey` → "signs in with the key". */
  title: string;
  run: UiTest;
}

/** Every UI test module below `dir`, folder by folder in name order. */
export function uiModules(dir: string): string[] {
  return filesEndingWith(dir, '.ui.js');
}

/**
 * The exported functions of a module in the order they are written. The transpiled module lists its
 * exports alphabetically, so the order is taken from where each function's text stands in the file.
 */
export function testsInOrder(file: string): NamedTest[] {
  const source = readFileSync(file, 'utf8');
  const exported = require(file) as Record<string, unknown>;
  const tests = Object.entries(exported)
    .filter((entry): entry is [string, UiTest] => typeof entry[1] === 'function')
    .map(([name, run]) => ({ name, run, at: source.indexOf(run.toString()) }));
  return tests.sort((a, b) => (a.at < 0 ? Infinity : a.at) - (b.at < 0 ? Infinity : b.at) || a.name.localeCompare(b.name)).map(({ name, run }) => ({ title: words(name), run }));
}

function words(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1 $2')
    .toLowerCase();
}
