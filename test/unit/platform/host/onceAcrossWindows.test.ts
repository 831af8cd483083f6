import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { claimOnce, claimOrActHere, releaseClaim, sweepClaims } from '../../../../src/platform/host/onceAcrossWindows';

const run = promisify(execFile);

describe('something done once across windows', () => {
  it('is claimed by exactly one of several processes racing for it', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'rl-claims-'));
    const module = require.resolve('../../../../src/platform/host/onceAcrossWindows');
    const script = `require(${JSON.stringify(module)}).claimOnce(${JSON.stringify(folder)}, 'job-1:failed').then((won) => process.stdout.write(String(won)))`;
    const answers = await Promise.all(Array.from({ length: 6 }, () => run(process.execPath, ['-e', script])));
    assert.deepEqual(answers.map((answer) => answer.stdout).sort(), ['false', 'false', 'false', 'false', 'false', 'true']);
    assert.equal(await claimOnce(folder, 'job-1:failed'), false, 'and stays claimed');
    assert.equal(await claimOnce(folder, 'job-1:finished'), true, 'other news is claimed apart');
  });

  it('acts here, saying why, when no claim can be made; a claim given back is claimed again', async () => {
    const root = mkdtempSync(join(tmpdir(), 'rl-claims-'));
    const notAFolder = join(root, 'file');
    writeFileSync(notAFolder, '');
    const reasons: unknown[] = [];
    assert.equal(await claimOrActHere(notAFolder, 'news', (error) => reasons.push(error)), true);
    assert.equal(reasons.length, 1);
    const folder = join(root, 'claims');
    assert.equal(await claimOrActHere(folder, 'news', (error) => reasons.push(error)), true);
    assert.equal(await claimOrActHere(folder, 'news', (error) => reasons.push(error)), false);
    await releaseClaim(folder, 'news');
    assert.equal(await claimOnce(folder, 'news'), true);
    assert.equal(reasons.length, 1);
  });

  it('sweeps only claims older than their lifetime', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'rl-claims-'));
    await claimOnce(folder, 'old');
    await claimOnce(folder, 'new');
    const [oldName] = readdirSync(folder);
    const past = (Date.now() - 30 * 24 * 3600_000) / 1000;
    utimesSync(join(folder, oldName!), past, past);
    assert.equal(await sweepClaims(folder, 14 * 24 * 3600_000), 1);
    assert.equal(readdirSync(folder).length, 1);
    assert.equal(await sweepClaims(join(folder, 'missing'), 1), 0, 'a folder that is not there is nothing to sweep');
  });
});
