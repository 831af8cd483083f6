// The shared `vscode` fake first: the modules below load `vscode` when they are required.
import { memento, outputLines, secretStorage } from '../platform/client/support/fakeVscode';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import {
  applyDevelopmentSeed,
  developmentSeedVariable,
  maxSeedEntries,
  maxSeedFileBytes,
  readAtMost,
  type DevelopmentSeed,
  type SeedDependencies,
  type SeedServices,
} from '../../../src/platform/host/developmentSeed';
import { CredentialStore } from '../../../src/platform/host/credentials';
import { RedactingLog } from '../../../src/platform/host/log';
import type { SettingsStore } from '../../../src/platform/host/settings';
import { RememberedList, type PinnedModel, type RememberedJob, type RememberedModel } from '../../../src/platform/host/rememberedItems';
import { rememberedJob, trainingModel } from '../../support/builders';

const trainingUrl = 'http://127.0.0.1:8787/training/v1';
const inferenceUrl = 'http://127.0.0.1:8787/inference/v1';
const apiKey = 'emulator-key-Qx7Lm2Vr9Tz4';

function seed(overrides: Partial<DevelopmentSeed> = {}): DevelopmentSeed {
  return {
    version: 1,
    runId: 'run-1',
    trainingApiUrl: trainingUrl,
    inferenceApiUrl: inferenceUrl,
    apiKey,
    models: [trainingModel({ id: 'model-a', name: 'agent-001', base_model: 'base-1' }), trainingModel({ id: 'model-b', name: 'agent-002', base_model: 'base-1' })],
    jobs: [
      { id: 'job-running', modelId: 'model-a', kind: 'rl', label: 'long run → agent-001' },
      { id: 'job-failed', modelId: 'model-b', kind: 'rl', label: 'out-of-memory run → agent-002' },
      { id: 'job-succeeded', modelId: 'model-a', kind: 'rl', label: 'finished run → agent-001' },
    ],
    ...overrides,
  };
}

/**
 * The services the seed uses, with the real credential store and remembered lists over the stand-in
 * SecretStorage and globalState, configured for `configured` addresses (the emulator's by default).
 */
function setUp(mode: vscode.ExtensionMode, configured = { trainingApiUrl: trainingUrl, inferenceApiUrl: inferenceUrl }) {
  const secrets = secretStorage();
  const globalState = memento();
  const scope = () => configured.trainingApiUrl || 'unset';
  const services = {
    context: { extensionMode: mode, secrets, globalState } as unknown as vscode.ExtensionContext,
    credentials: new CredentialStore(secrets as unknown as vscode.SecretStorage),
    remembered: {
      models: new RememberedList<RememberedModel>(globalState as unknown as vscode.Memento, 'models', scope),
      jobs: new RememberedList<RememberedJob>(globalState as unknown as vscode.Memento, 'jobs', scope),
      pinned: new RememberedList<PinnedModel>(globalState as unknown as vscode.Memento, 'pinned', scope),
    },
    log: new RedactingLog('RL Studio (test)'),
    settings: { current: { ...configured, project: '', requestTimeoutMs: 60_000, pollingIntervalMs: 1000 } } as SettingsStore,
  } satisfies SeedServices;
  return { services, secrets, globalState };
}

describe('development seed', () => {
  let folder: string;
  let seedFile: string;
  /** Files the seed read, by path. */
  let reads: string[];

  const writeSeed = (value: unknown) => writeFileSync(seedFile, typeof value === 'string' ? value : JSON.stringify(value));
  const dependencies = (environment: NodeJS.ProcessEnv = { [developmentSeedVariable]: seedFile }): SeedDependencies => ({
    environment,
    readFile: async (path, limit) => {
      reads.push(path);
      return readAtMost(path, limit);
    },
  });

  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'rl-studio-seed-'));
    seedFile = join(folder, 'seed.json');
    reads = [];
    outputLines.length = 0;
    writeSeed(seed());
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  for (const [name, mode] of [
    ['Production', vscode.ExtensionMode.Production],
    ['Test', vscode.ExtensionMode.Test],
  ] as const) {
    it(`${name} mode, with a valid seed file named: skipped before reading anything; no key, no models, no jobs`, async () => {
      const { services, secrets, globalState } = setUp(mode);
      const result = await applyDevelopmentSeed(services, dependencies());
      assert.deepEqual(result, { status: 'skipped', reason: 'not-development' });
      assert.deepEqual(reads, []);
      assert.equal(secrets.values.size, 0);
      assert.deepEqual(globalState.keys(), []);
      assert.equal(await services.credentials.isSignedIn(), false);
    });
  }

  it('Development mode without the variable: skipped, nothing read', async () => {
    const { services, secrets } = setUp(vscode.ExtensionMode.Development);
    assert.deepEqual(await applyDevelopmentSeed(services, dependencies({})), { status: 'skipped', reason: 'no-seed-file' });
    assert.deepEqual(reads, []);
    assert.equal(secrets.values.size, 0);
  });

  it('Development mode with a seed file: the key goes to SecretStorage, the models and jobs are listed in order', async () => {
    const { services, secrets, globalState } = setUp(vscode.ExtensionMode.Development);
    const result = await applyDevelopmentSeed(services, dependencies());
    assert.deepEqual(result, { status: 'applied', models: 2, jobs: 3 });
    assert.deepEqual(reads, [seedFile]);
    assert.equal(secrets.values.get('rlStudio.apiKey'), apiKey);
    assert.equal(await services.credentials.getApiKey(), apiKey);
    assert.deepEqual(services.remembered.models.list(), seed().models);
    assert.deepEqual(
      services.remembered.jobs.list().map(({ addedAt: _, ...job }) => job),
      seed().jobs,
    );
    assert.ok(services.remembered.jobs.list().every((job) => !Number.isNaN(Date.parse(job.addedAt))));
    // The key is kept nowhere but SecretStorage: not in globalState, not in the log.
    assert.ok(!JSON.stringify([...globalState.values]).includes(apiKey));
    assert.ok(
      outputLines.some((line) => line.includes('development seed: signed in')),
      outputLines.join('\n'),
    );
    assert.ok(!outputLines.join('\n').includes(apiKey));
  });

  it('the same run again (a window reload): skipped, so a job the user removed stays removed', async () => {
    const { services } = setUp(vscode.ExtensionMode.Development);
    await applyDevelopmentSeed(services, dependencies());
    await services.remembered.jobs.remove('job-failed');
    assert.deepEqual(await applyDevelopmentSeed(services, dependencies()), { status: 'skipped', reason: 'already-applied' });
    assert.deepEqual(
      services.remembered.jobs.list().map((job) => job.id),
      ['job-running', 'job-succeeded'],
    );
  });

  it('a new run replaces what the profile remembered for that address from an earlier run, and only for it', async () => {
    const { services, globalState } = setUp(vscode.ExtensionMode.Development);
    await services.remembered.jobs.add(rememberedJob('job-from-last-run'));
    await services.remembered.models.add({ id: 'model-from-last-run', entity: '', project: '', name: '', base_model: '' });
    await globalState.update('rlStudio.jobs:https://training.example.com/v1', [rememberedJob('elsewhere')]);
    writeSeed(seed({ runId: 'run-2' }));
    assert.equal((await applyDevelopmentSeed(services, dependencies())).status, 'applied');
    assert.deepEqual(
      services.remembered.jobs.list().map((job) => job.id),
      ['job-running', 'job-failed', 'job-succeeded'],
    );
    assert.deepEqual(
      services.remembered.models.list().map((model) => model.id),
      ['model-a', 'model-b'],
    );
    assert.deepEqual(
      globalState.get<RememberedJob[]>('rlStudio.jobs:https://training.example.com/v1').map((job) => job.id),
      ['elsewhere'],
    );
  });

  it('a seed for other addresses than the configured ones: refused; the key already stored stays', async () => {
    const { services, secrets } = setUp(vscode.ExtensionMode.Development, { trainingApiUrl: 'http://127.0.0.1:9999/training/v1', inferenceApiUrl: inferenceUrl });
    await services.credentials.setApiKey('the-developers-own-key');
    const result = await applyDevelopmentSeed(services, dependencies());
    assert.equal(result.status, 'refused');
    assert.match((result as { reason: string }).reason, /training API address .* is not the configured one/);
    assert.equal(secrets.values.get('rlStudio.apiKey'), 'the-developers-own-key');
    assert.deepEqual(services.remembered.models.list(), []);
  });

  it('a seed whose addresses are not on this machine, even when configured so: refused, nothing stored', async () => {
    const remote = { trainingApiUrl: 'https://training.example.com/v1', inferenceApiUrl: 'https://inference.example.com/v1' };
    const { services, secrets } = setUp(vscode.ExtensionMode.Development, remote);
    writeSeed(seed(remote));
    const result = await applyDevelopmentSeed(services, dependencies());
    assert.equal(result.status, 'refused');
    assert.match((result as { reason: string }).reason, /not on this machine/);
    assert.equal(secrets.values.size, 0);
  });

  it(`a seed file larger than ${maxSeedFileBytes} bytes: refused after reading at most one byte more`, async () => {
    const { services, secrets } = setUp(vscode.ExtensionMode.Development);
    writeSeed(JSON.stringify({ ...seed(), padding: 'x'.repeat(4 * maxSeedFileBytes) }));
    assert.equal((await readAtMost(seedFile, maxSeedFileBytes)).length, maxSeedFileBytes + 1);
    const result = await applyDevelopmentSeed(services, dependencies());
    assert.deepEqual(result, { status: 'refused', reason: `the file is larger than ${maxSeedFileBytes} bytes` });
    assert.equal(secrets.values.size, 0);
  });

  it(`a seed listing more than ${maxSeedEntries} jobs: refused, nothing listed`, async () => {
    const { services, secrets } = setUp(vscode.ExtensionMode.Development);
    const jobs = Array.from({ length: maxSeedEntries + 1 }, (_, index) => ({ id: `job-${index}` }));
    writeSeed(seed({ jobs }));
    const result = await applyDevelopmentSeed(services, dependencies());
    assert.equal(result.status, 'refused');
    assert.equal(secrets.values.size, 0);
    assert.deepEqual(services.remembered.jobs.list(), []);
  });

  for (const [what, content, reason] of [
    ['not JSON', '{"version": 1,', /not JSON/],
    ['another version', { ...seed(), version: 2 }, /version 1/],
    ['an empty key', { ...seed(), apiKey: '' }, /"apiKey"/],
    ['a job id with a space', { ...seed(), jobs: [{ id: 'job one' }] }, /without spaces/],
    ['a job of an unknown kind', { ...seed(), jobs: [{ id: 'job-1', kind: 'grpo' }] }, /"kind"/],
  ] as const) {
    it(`a seed file with ${what}: refused with the reason, in the log too; nothing stored`, async () => {
      const { services, secrets } = setUp(vscode.ExtensionMode.Development);
      writeSeed(content);
      const result = await applyDevelopmentSeed(services, dependencies());
      assert.equal(result.status, 'refused');
      assert.match((result as { reason: string }).reason, reason);
      assert.ok(
        outputLines.some((line) => line.startsWith('warn') && line.includes('not applied')),
        outputLines.join('\n'),
      );
      assert.equal(secrets.values.size, 0);
    });
  }

  it('a seed file that cannot be read: refused, not thrown', async () => {
    const { services } = setUp(vscode.ExtensionMode.Development);
    const result = await applyDevelopmentSeed(services, dependencies({ [developmentSeedVariable]: join(folder, 'missing.json') }));
    assert.equal(result.status, 'refused');
  });
});
