import assert from 'node:assert/strict';
import { join } from 'node:path';
import { analysePayload, diagnose, type PayloadDiagnostic } from '../../../src/webhooks/model/payload';
import { fixturesDirectory, fixturesIn, lineColumn, matchGolden } from './support/fixtures';

function formatDiagnostics(text: string, diagnostics: PayloadDiagnostic[]): string {
  if (diagnostics.length === 0) return '(no diagnostics)\n';
  return (
    diagnostics
      .map((diagnostic) => {
        const range = `${lineColumn(text, diagnostic.start)}-${lineColumn(text, diagnostic.end)}`;
        const fixes = diagnostic.fixes?.length ? `\n    fixes: ${diagnostic.fixes.map((fix) => JSON.stringify(fix)).join(', ')}` : '';
        return `${range} ${diagnostic.severity} ${diagnostic.code} on ${JSON.stringify(text.slice(diagnostic.start, diagnostic.end))}\n    ${diagnostic.message}${fixes}`;
      })
      .join('\n') + '\n'
  );
}

describe('payload diagnostics (golden files)', () => {
  for (const fixture of fixturesIn('diagnostics')) {
    it(`matches ${fixture.name.replace(/\.json$/, '.expected.txt')}`, () => {
      const analysis = analysePayload(fixture.text, fixture.kind);
      const actual = formatDiagnostics(fixture.text, diagnose(analysis, { webhook: fixture.context.webhook }));
      const golden = matchGolden(join(fixturesDirectory, 'diagnostics', fixture.name.replace(/\.json$/, '.expected.txt')), actual);
      assert.equal(golden.actual, golden.expected);
    });
  }
});

describe('documented example payloads', () => {
  const fixtures = fixturesIn('documented');
  it('are all present', () => assert.ok(fixtures.length >= 5));
  for (const fixture of fixtures) {
    it(`${fixture.name} gives no diagnostics without a webhook`, () => {
      const diagnostics = diagnose(analysePayload(fixture.text, fixture.kind));
      assert.deepEqual(diagnostics, []);
    });
    it(`${fixture.name} gives no diagnostics with a webhook that has what it uses`, () => {
      const webhook = { name: 'deploy-workflow', hasAccessToken: true, secretName: 'DEPLOY_SECRET' };
      assert.deepEqual(diagnose(analysePayload(fixture.text, fixture.kind), { webhook }), []);
    });
  }
});
