import * as assert from 'node:assert/strict';
import { platformReadiness } from '../../../../src/platform/host/readiness';

function sources(trainingApiUrl: string, inferenceApiUrl: string, signedIn: boolean) {
  return { settings: { current: { trainingApiUrl, inferenceApiUrl } }, credentials: { isSignedIn: async () => signedIn } };
}

describe('platformReadiness', () => {
  it('is ready with both addresses set and a key stored', async () => {
    assert.deepEqual(await platformReadiness(sources('https://t', 'https://i', true)), { endpoints: true, signedIn: true, ready: true });
  });

  it('needs both addresses unless told which API the work uses', async () => {
    const trainingOnly = sources('https://t', '', true);
    assert.deepEqual(await platformReadiness(trainingOnly), { endpoints: false, signedIn: true, ready: false });
    assert.deepEqual(await platformReadiness(trainingOnly, ['training']), { endpoints: true, signedIn: true, ready: true });
  });

  it('says when the key is missing', async () => {
    assert.deepEqual(await platformReadiness(sources('https://t', 'https://i', false)), { endpoints: true, signedIn: false, ready: false });
  });
});
