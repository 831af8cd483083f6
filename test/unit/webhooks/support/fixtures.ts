import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { PayloadDocumentKind, WebhookSecretNames } from '../../../../src/webhooks/model/payload';

/** The repository root, found from wherever the transpiled test runs. */
export function repositoryRoot(): string {
  let directory = __dirname;
  while (!existsSync(join(directory, 'package.json'))) {
    const parent = dirname(directory);
    if (parent === directory) throw new Error('package.json not found above the tests');
    directory = parent;
  }
  return directory;
}

export const fixturesDirectory = join(repositoryRoot(), 'test', 'fixtures', 'payload');

export interface Fixture {
  name: string;
  path: string;
  text: string;
  kind: PayloadDocumentKind;
  context: { webhook?: WebhookSecretNames; metadataKeys?: string[] };
}

/** Every template fixture in a folder: `*.payload.json` and `*.automation.json`, with an optional `<base>.context.json`. */
export function fixturesIn(folder: string): Fixture[] {
  const directory = join(fixturesDirectory, folder);
  return readdirSync(directory)
    .filter((name) => name.endsWith('.payload.json') || name.endsWith('.automation.json'))
    .sort()
    .map((name) => {
      const path = join(directory, name);
      const base = name.replace(/\.(payload|automation)\.json$/, '');
      const contextPath = join(directory, `${base}.context.json`);
      return {
        name,
        path,
        text: readFileSync(path, 'utf8'),
        kind: name.endsWith('.automation.json') ? 'automation' : 'payload',
        context: existsSync(contextPath) ? JSON.parse(readFileSync(contextPath, 'utf8')) : {},
      } satisfies Fixture;
    });
}

/** Compares with the golden file, or rewrites it when UPDATE_GOLDEN=1 (then review the diff). */
export function matchGolden(path: string, actual: string): { expected: string; actual: string } {
  if (process.env.UPDATE_GOLDEN === '1' || !existsSync(path)) {
    if (process.env.UPDATE_GOLDEN !== '1') throw new Error(`golden file missing: ${path} (run with UPDATE_GOLDEN=1 to create it)`);
    writeFileSync(path, actual);
  }
  return { expected: readFileSync(path, 'utf8'), actual };
}

/** 1-based line:column of an offset, the way an editor shows it. */
export function lineColumn(text: string, offset: number): string {
  let line = 1;
  let lineStart = 0;
  for (let at = text.indexOf('\n'); at >= 0 && at < offset; at = text.indexOf('\n', at + 1)) {
    line++;
    lineStart = at + 1;
  }
  return `${line}:${offset - lineStart + 1}`;
}

export const cursorMarker = '‸';

/** Removes every cursor marker and returns the clean text with the offsets where they stood. */
export function takeCursors(marked: string): { text: string; cursors: number[] } {
  const cursors: number[] = [];
  let text = '';
  let from = 0;
  for (let at = marked.indexOf(cursorMarker); at >= 0; at = marked.indexOf(cursorMarker, from)) {
    text += marked.slice(from, at);
    cursors.push(text.length);
    from = at + cursorMarker.length;
  }
  return { text: text + marked.slice(from), cursors };
}
