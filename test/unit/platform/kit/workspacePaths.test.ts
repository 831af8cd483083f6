import * as assert from 'node:assert/strict';
import { containingFolder, type PathRules } from '../../../../src/platform/kit/workspacePaths';

const inside = (folder: string, target: string, rules: PathRules) => containingFolder(target, [folder], rules) !== undefined;

describe('containingFolder', () => {
  it('a resolved file lies in a folder only below it (POSIX)', () => {
    assert.equal(inside('/work/repo', '/work/repo/evals/set.jsonl', 'posix'), true);
    assert.equal(inside('/work/repo', '/work/repo/..set.jsonl', 'posix'), true);
    assert.equal(inside('/work/repo', '/work/repo', 'posix'), false);
    assert.equal(inside('/work/repo', '/work/repo-other/set.jsonl', 'posix'), false);
    assert.equal(inside('/work/repo', '/work/set.jsonl', 'posix'), false);
    assert.equal(inside('/work/repo', '/etc/passwd', 'posix'), false);
    assert.equal(inside('/work/repo', 'relative/set.jsonl', 'posix'), false);
    // A link inside the folder that resolves outside it: the caller gives the resolved path.
    assert.equal(inside('/work/repo', '/home/me/.ssh/id_rsa', 'posix'), false);
  });

  it('a resolved file lies in a folder only below it (Windows: either separator, any case, other drives out)', () => {
    assert.equal(inside('C:\\work\\repo', 'C:\\work\\repo\\evals\\set.jsonl', 'win32'), true);
    assert.equal(inside('C:\\work\\repo', 'c:/WORK/Repo/evals/set.jsonl', 'win32'), true);
    assert.equal(inside('C:\\work\\repo', 'C:\\work\\repo-other\\x', 'win32'), false);
    assert.equal(inside('C:\\work\\repo', 'C:\\work\\x', 'win32'), false);
    assert.equal(inside('C:\\work\\repo', 'D:\\work\\repo\\x', 'win32'), false);
    assert.equal(inside('C:\\work\\repo', '\\\\server\\share\\x', 'win32'), false);
  });

  it('any of several workspace folders will do', () => {
    assert.equal(containingFolder('/b/set.jsonl', ['/a', '/b'], 'posix') !== undefined, true);
    assert.equal(containingFolder('/c/set.jsonl', ['/a', '/b'], 'posix') !== undefined, false);
    assert.equal(containingFolder('/a/set.jsonl', [], 'posix') !== undefined, false);
  });

  it('finds the folder that holds a file by whole segments', () => {
    assert.equal(containingFolder('/work/a/x.jsonl', ['/work/b', '/work/a'], 'posix'), '/work/a');
    assert.equal(containingFolder('/work/a-b/x.jsonl', ['/work/a'], 'posix'), undefined);
    assert.equal(containingFolder('/work/a', ['/work/a/'], 'posix', { folderItself: true }), '/work/a/');
    assert.equal(containingFolder('C:\\Work\\A\\x', ['c:\\work\\a'], 'win32'), 'c:\\work\\a');
    assert.equal(containingFolder('/Work/A/x', ['/work/a'], 'posix'), undefined, 'case matters on POSIX');
    assert.equal(containingFolder('/Work/A/x', ['/work/a'], 'darwin'), '/work/a', 'and not on macOS volumes');
  });

  it('holds the folder itself only when asked to', () => {
    assert.equal(containingFolder('/work/a', ['/work/a'], 'posix'), undefined);
    assert.equal(containingFolder('/work/a', ['/work/a'], 'posix', { folderItself: true }), '/work/a');
  });
});
