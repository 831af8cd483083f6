import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getLanguageService, TextDocument } from 'vscode-json-languageservice';
import { fixturesIn, repositoryRoot } from './support/fixtures';

// The schema contributed through `jsonValidation`, checked with the same engine VS Code's JSON
// support uses, so automation files get the structure errors users will actually see.
const schemaPath = join(repositoryRoot(), 'media', 'schemas', 'automation.schema.json');
const schemaUri = 'rl-studio:automation.schema.json';

async function validate(text: string): Promise<string[]> {
  const service = getLanguageService({ schemaRequestService: async () => readFileSync(schemaPath, 'utf8') });
  service.configure({ validate: true, schemas: [{ uri: schemaUri, fileMatch: ['*.automation.json'] }] });
  const document = TextDocument.create('file:///work/test.automation.json', 'json', 1, text);
  const diagnostics = await service.doValidation(document, service.parseJSONDocument(document));
  return diagnostics.map((diagnostic) => (typeof diagnostic.message === 'string' ? diagnostic.message : diagnostic.message.value));
}

describe('automation JSON schema', () => {
  for (const fixture of [...fixturesIn('documented'), ...fixturesIn('diagnostics')].filter((candidate) => candidate.kind === 'automation')) {
    // The schema checks structure only: regex contents and variables are the payload analyser's job.
    const broken = fixture.name.includes('without-regex');
    it(`${broken ? 'rejects' : 'accepts'} ${fixture.name}`, async () => {
      const messages = await validate(fixture.text);
      if (broken)
        assert.ok(
          messages.some((message) => /aliasRegex/.test(message)),
          messages.join('\n'),
        );
      else assert.deepEqual(messages, []);
    });
  }

  it('rejects a collection filter on a registry scope, an unknown event and a missing webhook', async () => {
    const messages = await validate(
      JSON.stringify({
        name: 'x',
        scope: { registry: 'r', collectionFilter: 'c' },
        event: { type: 'SOMETHING_ELSE' },
        team: 'acme',
        payload: {},
      }),
    );
    assert.ok(
      messages.some((message) => /webhook/.test(message)),
      messages.join('\n'),
    );
    assert.ok(
      messages.some((message) => /SOMETHING_ELSE|LINK_ARTIFACT/.test(message)),
      messages.join('\n'),
    );
    assert.ok(messages.length >= 3, messages.join('\n'));
  });

  it('requires the options of run events', async () => {
    const messages = await validate(JSON.stringify({ name: 'x', scope: { project: 'acme/p' }, event: { type: 'RUN_METRIC_THRESHOLD', metric: 'loss' }, team: 't', webhook: 'w' }));
    assert.ok(
      messages.some((message) => /operator/.test(message)),
      messages.join('\n'),
    );
  });
});
