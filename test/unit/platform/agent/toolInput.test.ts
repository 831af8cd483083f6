import assert from 'node:assert/strict';
import { dataUrl, inputObject, optionalChoice, optionalNumber, optionalTextList, requiredId, stepList, ToolInputError, workspacePath } from '../../../../src/platform/agent/toolInput';

const refused = (work: () => unknown, pattern: RegExp) => assert.throws(work, (error: unknown) => error instanceof ToolInputError && pattern.test(error.message));

describe('tool input', () => {
  it('is an object', () => {
    for (const bad of [null, 'text', 3, [1]]) refused(() => inputObject(bad), /JSON object/);
    assert.deepEqual(inputObject({ a: 1 }), { a: 1 });
  });

  it('takes ids that are one path segment, and refuses dot segments however spelled', () => {
    assert.equal(requiredId({ id: ' 4f2a-9 ' }, 'id'), '4f2a-9');
    for (const bad of ['..', '.', 'a/../b', '%2e%2e', '%252e%252e', 'a/b', 'a\\b', 'a?b', 'a#b', 'a b', 'a\u0000b']) refused(() => requiredId({ id: bad }, 'id'), /"id" is not an id/);
    refused(() => requiredId({}, 'id'), /"id" is required/);
    refused(() => requiredId({ id: 7 }, 'id'), /must be a string/);
    refused(() => requiredId({ id: 'x'.repeat(513) }, 'id'), /longer than 512/);
  });

  it('takes steps as whole numbers, sorted, once each, and at most 100', () => {
    assert.deepEqual(stepList({ steps: [24, 20, 20, 0] }, 'steps'), [0, 20, 24]);
    refused(() => stepList({ steps: [] }, 'steps'), /non-empty array/);
    refused(() => stepList({ steps: '1,2' }, 'steps'), /non-empty array/);
    for (const bad of [-1, 1.5, Number.NaN, Infinity, '3', 2 ** 60]) refused(() => stepList({ steps: [bad] }, 'steps'), /whole numbers/);
    refused(() => stepList({ steps: Array.from({ length: 101 }, (_, index) => index) }, 'steps'), /at most 100/);
  });

  it('takes workspace paths without .. segments, control characters or URLs', () => {
    assert.equal(workspacePath({ path: 'rollouts/batch-7.jsonl' }, 'path'), 'rollouts/batch-7.jsonl');
    assert.equal(workspacePath({ path: 'a..b/c.jsonl' }, 'path'), 'a..b/c.jsonl', 'two dots inside a name are a name');
    refused(() => workspacePath({ path: '../secret.jsonl' }, 'path'), /inside the workspace/);
    refused(() => workspacePath({ path: 'a\\..\\..\\b' }, 'path'), /inside the workspace/);
    refused(() => workspacePath({ path: 'a\u0000b' }, 'path'), /control characters/);
    refused(() => workspacePath({ path: 'file:///etc/passwd' }, 'path'), /not a URL/);
    refused(() => workspacePath({ path: 'x'.repeat(1025) }, 'path'), /longer than 1024/);
  });

  it('checks numbers, choices, lists and data URLs', () => {
    assert.equal(optionalNumber({ n: 5 }, 'n', { min: 0, max: 10, integer: true }), 5);
    assert.equal(optionalNumber({}, 'n', { min: 0, max: 10 }), undefined);
    refused(() => optionalNumber({ n: 11 }, 'n', { min: 0, max: 10 }), /between 0 and 10/);
    refused(() => optionalNumber({ n: 0.5 }, 'n', { min: 0, max: 10, integer: true }), /whole number/);
    refused(() => optionalNumber({ n: Number.NaN }, 'n', { min: 0, max: 10 }), /must be a number/);
    assert.equal(optionalChoice({ s: 'sampled' }, 's', ['deterministic', 'sampled'] as const), 'sampled');
    refused(() => optionalChoice({ s: 'greedy' }, 's', ['deterministic', 'sampled'] as const), /one of "deterministic", "sampled"/);
    assert.deepEqual(optionalTextList({ m: [' loss ', 'reward'] }, 'm', 4), ['loss', 'reward']);
    refused(() => optionalTextList({ m: ['a', 'b', 'c'] }, 'm', 2), /at most 2/);
    refused(() => optionalTextList({ m: [''] }, 'm', 2), /non-empty strings/);
    assert.equal(dataUrl({ u: 's3://bucket/data.jsonl' }, 'u'), 's3://bucket/data.jsonl');
    refused(() => dataUrl({ u: 'https://user:pass@host/data' }, 'u'), /user name or password/);
    refused(() => dataUrl({ u: 'data.jsonl' }, 'u'), /must be a URL/);
  });
});
