import { executed } from '../client/support/fakeVscode';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ContextKeys, setContext } from '../../../../src/platform/host/contextKeys';
import { repositoryRoot } from '../client/support/harness';

/** The context keys the manifest's `when` and `enablement` clauses read (view ids and settings compared with `==` are not keys). */
function keysReadByManifest(): Set<string> {
  const manifest = JSON.parse(readFileSync(join(repositoryRoot(), 'package.json'), 'utf8')) as { contributes: unknown };
  const keys = new Set<string>();
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (typeof value === 'object' && value !== null) {
      for (const [name, inner] of Object.entries(value)) {
        if ((name === 'when' || name === 'enablement') && typeof inner === 'string') {
          for (const match of inner.matchAll(/(?<![=~]\s*)(?<![\w.])rlStudio\.[A-Za-z]+/g)) keys.add(match[0]);
        } else {
          walk(inner);
        }
      }
    }
  };
  walk(manifest.contributes);
  return keys;
}

describe('context keys', () => {
  it('declares every key the manifest reads, and only those', () => {
    const declared = new Set<string>(Object.values(ContextKeys));
    const read = keysReadByManifest();
    assert.deepEqual(
      [...read].filter((key) => !declared.has(key)),
      [],
      'read by package.json but never set',
    );
    assert.deepEqual(
      [...declared].filter((key) => !read.has(key)),
      [],
      'set but read by nothing',
    );
  });

  it("sets a key through VS Code's setContext command, every time it is asked", () => {
    executed.length = 0;
    setContext(ContextKeys.jobsEmpty, true);
    setContext(ContextKeys.jobsEmpty, true);
    setContext(ContextKeys.jobsEmpty, false);
    assert.deepEqual(executed, [
      { id: 'setContext', args: ['rlStudio.jobsEmpty', true] },
      { id: 'setContext', args: ['rlStudio.jobsEmpty', true] },
      { id: 'setContext', args: ['rlStudio.jobsEmpty', false] },
    ]);
  });
});
