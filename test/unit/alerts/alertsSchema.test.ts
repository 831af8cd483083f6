import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getLanguageService, TextDocument } from 'vscode-json-languageservice';
import { parseAlertRules } from '../../../src/alerts/model/alertRules';
import { repositoryRoot } from '../webhooks/support/fixtures';

// The schema contributed through `jsonValidation` for .rlstudio/alerts.json, checked with the
// engine VS Code's JSON support uses, against the parser that decides what the rules are.
const schemaPath = join(repositoryRoot(), 'media', 'schemas', 'alerts.schema.json');

async function validate(text: string): Promise<string[]> {
  const service = getLanguageService({ schemaRequestService: async () => readFileSync(schemaPath, 'utf8') });
  service.configure({ validate: true, schemas: [{ uri: 'rl-studio:alerts.schema.json', fileMatch: ['**/.rlstudio/alerts.json'] }] });
  const document = TextDocument.create('file:///work/.rlstudio/alerts.json', 'json', 1, text);
  const diagnostics = await service.doValidation(document, service.parseJSONDocument(document));
  return diagnostics.map((diagnostic) => (typeof diagnostic.message === 'string' ? diagnostic.message : diagnostic.message.value));
}

describe('alert rules JSON schema', () => {
  it("accepts the README's example, which the parser reads whole", async () => {
    const readme = readFileSync(join(repositoryRoot(), 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Alert rules'));
    const example = /```json\n([\s\S]*?)```/.exec(section)![1]!;
    assert.deepEqual(await validate(example), []);
    const { rules, problems } = parseAlertRules(example);
    assert.deepEqual(problems, []);
    assert.equal(rules.length, 3);
  });

  it('rejects what the parser rejects: an unknown outcome, a metric without a bound, an unknown action', async () => {
    const rule = (when: unknown, action: unknown = { notify: 'info' }) => JSON.stringify({ rules: [{ name: 'r', when, do: [action] }] });
    for (const text of [rule({ job: 'exploded' }), rule({ metric: 'loss' }), rule({ job: 'failed' }, { shell: 'rm -rf /' }), rule({ metric: 'loss', above: 1, forSteps: 0 })]) {
      assert.ok((await validate(text)).length > 0, text);
      assert.ok(
        parseAlertRules(text).problems.some((problem) => problem.severity === 'error'),
        text,
      );
    }
  });
});
