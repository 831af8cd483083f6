import * as assert from 'node:assert/strict';
import { readWrittenPath } from '../../../src/evals/model/workspacePaths';

describe('paths read from a workspace file stay in the workspace', () => {
  for (const [written, relative] of [
    ['evals/set.evalset.jsonl', 'evals/set.evalset.jsonl'],
    ['./evals/../evals/set.jsonl', 'evals/set.jsonl'],
    ['evals\\set.jsonl', 'evals/set.jsonl'],
    ['..set.jsonl', '..set.jsonl'],
    ['a/..b/set.jsonl', 'a/..b/set.jsonl'],
  ]) {
    it(`${JSON.stringify(written)} is read as ${relative}`, () => {
      assert.deepEqual(readWrittenPath(written!, 'eval set'), { ok: true, relative });
    });
  }

  for (const written of [
    '../x',
    '../../etc/passwd',
    'evals/../../x',
    '..\\..\\x',
    'evals\\..\\..\\x',
    '..',
    '/etc/passwd',
    '\\etc\\passwd',
    '\\\\server\\share\\x',
    '//server/share/x',
    'C:\\Users\\x',
    'c:/x',
    'C:x',
    'file:///etc/passwd',
    'vscode-remote://host/x',
  ]) {
    it(`${JSON.stringify(written)} is refused as pointing outside, nothing read`, () => {
      const read = readWrittenPath(written, 'eval set');
      assert.equal(read.ok, false);
      assert.match((read as { problem: string }).problem, /^the eval set path ".*" points outside the workspace folder; nothing was read$/);
    });
  }

  it('the refusal quotes the path as written, escaped on one line', () => {
    const read = readWrittenPath('../x\n- step 24', 'eval set');
    assert.equal(read.ok, false);
    assert.match((read as { problem: string }).problem, /control characters/);
    assert.deepEqual(readWrittenPath('../x', 'eval set'), { ok: false, problem: 'the eval set path "../x" points outside the workspace folder; nothing was read' });
  });

  it('an empty path, a folder and an overlong path are refused', () => {
    assert.equal(readWrittenPath('', 'eval set').ok, false);
    assert.equal(readWrittenPath('.', 'eval set').ok, false);
    assert.equal(readWrittenPath('evals/', 'eval set').ok, false);
    assert.equal(readWrittenPath('a/'.repeat(600) + 'x', 'eval set').ok, false);
  });
});
