/**
 * The demo workspace (test/vscode/demo-workspace/, copied into the folder `npm start` opens): a
 * file for every feature, each one valid by the same checks the extension runs on it, and a README
 * that points at them. A broken file here would greet every demo with errors.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { getLanguageService, TextDocument } from 'vscode-json-languageservice';
import { validateTrajectoryGroup } from '../../../src/platform/kit/trajectoryShape';
import { analysePayload, diagnose, payloadTemplates } from '../../../src/webhooks/model/payload';
import { arithmeticQuestion } from '../../emulator/evalQuestions';
import { requestedFailure } from '../../emulator/jobs';
import { repositoryRoot } from '../webhooks/support/fixtures';

const workspace = join(repositoryRoot(), 'test', 'vscode', 'demo-workspace');

function filesUnder(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

const files = filesUnder(workspace)
  .map((path) => relative(workspace, path).split('\\').join('/'))
  .sort();
const text = (file: string) => readFileSync(join(workspace, file), 'utf8');
const groupsOf = (file: string) =>
  text(file)
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as unknown);

async function schemaProblems(automation: string): Promise<string[]> {
  const schemaPath = join(repositoryRoot(), 'media', 'schemas', 'automation.schema.json');
  const service = getLanguageService({ schemaRequestService: async () => readFileSync(schemaPath, 'utf8') });
  service.configure({ validate: true, schemas: [{ uri: 'rl-studio:automation.schema.json', fileMatch: ['*.automation.json'] }] });
  const document = TextDocument.create('file:///demo/x.automation.json', 'json', 1, automation);
  const diagnostics = await service.doValidation(document, service.parseJSONDocument(document));
  return diagnostics.map((diagnostic) => (typeof diagnostic.message === 'string' ? diagnostic.message : diagnostic.message.value));
}

describe('demo workspace', () => {
  it('has a README that names every folder and trajectory file', () => {
    const readme = text('README.md');
    for (const file of files.filter((name) => name !== 'README.md')) {
      const named = file.endsWith('.jsonl') || !file.includes('/') ? file : `${file.split('/')[0]}/`;
      assert.ok(readme.includes(named), `README.md does not mention ${named}`);
    }
  });

  it('sets no RL Studio setting: the API addresses belong in the user settings, where the key may follow them', () => {
    for (const file of files) assert.doesNotMatch(text(file), /rlStudio\.\w+Url/, file);
  });

  it('has a payload file for every template, each without a diagnostic', () => {
    for (const template of payloadTemplates) {
      const file = `payloads/${template.id}.payload.json`;
      assert.ok(files.includes(file), `no ${file}`);
      assert.deepEqual(diagnose(analysePayload(text(file), 'payload')), [], file);
    }
  });

  it('has automation files, each valid against the automation schema and without a payload diagnostic', async () => {
    const automations = files.filter((file) => file.endsWith('.automation.json'));
    assert.ok(automations.length >= 1);
    for (const file of automations) {
      assert.deepEqual(await schemaProblems(text(file)), [], file);
      assert.deepEqual(diagnose(analysePayload(text(file), 'automation')), [], file);
    }
  });

  it('has trajectory files whose every group has the trajectory-group shape, without even a warning', () => {
    const trajectoryFiles = files.filter((file) => file.endsWith('.jsonl') && !file.endsWith('.evalset.jsonl'));
    assert.ok(trajectoryFiles.length >= 2);
    for (const file of trajectoryFiles) {
      const groups = groupsOf(file);
      assert.ok(groups.length >= 3, `${file} makes a job of at least three steps`);
      groups.forEach((group, index) => assert.deepEqual(validateTrajectoryGroup(group), [], `${file}, line ${index + 1}`));
    }
  });

  it('has eval sets whose every sample has messages and a reference the emulator grades', () => {
    const evalSets = files.filter((file) => file.endsWith('.evalset.jsonl'));
    assert.ok(evalSets.length >= 1);
    for (const file of evalSets) {
      groupsOf(file).forEach((value, index) => {
        const sample = value as { messages: { role: string; content: string }[]; reference: string };
        const question = sample.messages.filter((message) => message.role === 'user').at(-1)?.content ?? '';
        assert.equal(String(arithmeticQuestion(question)?.result), sample.reference, `${file}, line ${index + 1}`);
      });
    }
  });

  it('trains normally from quiz.jsonl and fails on purpose from fails-on-purpose.jsonl (emulator rules)', () => {
    assert.equal(requestedFailure(groupsOf('trajectories/quiz.jsonl'), undefined), undefined);
    assert.match(requestedFailure(groupsOf('trajectories/fails-on-purpose.jsonl'), undefined) ?? '', /on purpose/);
  });
});
