/**
 * Errors become words one way: a platform call's failure through describeFailure, anything else
 * thrown through errorMessage (src/platform/client/errorMessage.ts). No file reads a caught value's message
 * inline, where a thrown string or an object without a message would become "undefined".
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { sourcesUnder } from '../../support/files';

const repoRoot = join(__dirname, '..', '..', '..', '..');
const inlineReadings = [/instanceof Error \? \w+\.message : String\(/, /\(\w+ as Error\)\.message/];

describe('the words of errors, one way', () => {
  it('no file of src/ turns a caught value into text inline', () => {
    const offenders: string[] = [];
    for (const [path, text] of sourcesUnder(join(repoRoot, 'src'))) {
      if (path === 'src/platform/client/errorMessage.ts') continue;
      text.split('\n').forEach((line, at) => {
        if (inlineReadings.some((pattern) => pattern.test(line))) offenders.push(`${path}:${at + 1}: ${line.trim()}`);
      });
    }
    assert.deepEqual(offenders, [], 'use errorMessage(error), or describeFailure for a platform call');
  });
});
