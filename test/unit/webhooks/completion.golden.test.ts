import assert from 'node:assert/strict';
import { join } from 'node:path';
import { analysePayload, complete, defaultSampleEvent } from '../../../src/webhooks/model/payload';
import { fixturesDirectory, fixturesIn, lineColumn, matchGolden, takeCursors } from './support/fixtures';

describe('payload completion (golden files)', () => {
  for (const fixture of fixturesIn('completion')) {
    it(`matches ${fixture.name.replace(/\.json$/, '.expected.txt')}`, () => {
      const { text, cursors } = takeCursors(fixture.text);
      assert.ok(cursors.length > 0, 'the fixture marks at least one cursor');
      const analysis = analysePayload(text, fixture.kind);
      const context = { ...fixture.context, sample: defaultSampleEvent() };
      const blocks = cursors.map((cursor) => {
        const line = text.slice(text.lastIndexOf('\n', cursor - 1) + 1, cursor);
        const header = `at ${lineColumn(text, cursor)} after ${JSON.stringify(line.trimStart())}`;
        const result = complete(analysis, cursor, context);
        if (!result) return `${header}\n  (nothing offered)`;
        const range = `  replaces ${lineColumn(text, result.replaceStart)}-${lineColumn(text, result.replaceEnd)} ${JSON.stringify(text.slice(result.replaceStart, result.replaceEnd))}`;
        const items = result.items.map(
          (item) => `  ${item.kind.padEnd(15)} ${item.label.padEnd(32)} inserts ${JSON.stringify(item.insertText)}${item.retrigger ? ' then suggests again' : ''}\n${''.padEnd(19)}— ${item.summary}`,
        );
        return [header, range, ...(items.length ? items : ['  (empty list)'])].join('\n');
      });
      const golden = matchGolden(join(fixturesDirectory, 'completion', fixture.name.replace(/\.json$/, '.expected.txt')), blocks.join('\n\n') + '\n');
      assert.equal(golden.actual, golden.expected);
    });
  }
});
