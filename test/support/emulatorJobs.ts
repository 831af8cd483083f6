/**
 * Training jobs started on the emulator through the platform's own API, as another client would
 * (a training script, a colleague): the extension under test learns of them only by following them.
 */
import * as assert from 'node:assert/strict';
import type { Emulator } from '../emulator/contract';
import { trajectoryGroups } from './builders';

export interface JobThroughTheApi {
  /** The model trained; the seeded trained model when left out. */
  modelId?: string;
  /** Gradient steps, one per trajectory group. */
  steps: number;
  /** Emulated seconds per step of this job; the emulator goes back to 0.05 s, the tests' pace, afterwards. */
  secondsPerStep: number;
}

/** Starts the job and returns its id. */
export async function startJobThroughTheApi(emulator: Emulator, { modelId, steps, secondsPerStep }: JobThroughTheApi): Promise<string> {
  const model = modelId ?? emulator.seeded?.trainedModelId;
  assert.ok(model, 'a model to train: the emulator was seeded, or one was named');
  emulator.setSecondsPerStep(secondsPerStep);
  try {
    const groups = trajectoryGroups(steps, (index) => ({ question: `puzzle ${index}`, reward: (index % 4) / 3 }));
    const response = await fetch(`${emulator.trainingUrl}/preview/training-jobs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${emulator.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model_id: model, trajectory_groups: groups }),
    });
    assert.equal(response.status, 200, await response.clone().text());
    return ((await response.json()) as { id: string }).id;
  } finally {
    emulator.setSecondsPerStep(0.05);
  }
}
