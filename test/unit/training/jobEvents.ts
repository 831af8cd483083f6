/** Builders of a training job's events as the platform sends them, for the analysis tests. */
import type { TrainingJobEvent } from '../../../src/platform/client/types';

let counter = 0;

export function started(totalSteps: number, createdAt?: string): TrainingJobEvent {
  return { id: `e${++counter}`, type: 'training_started', data: { num_sequences: totalSteps }, ...(createdAt ? { created_at: createdAt } : {}) };
}

export function step(data: Record<string, unknown>, createdAt?: string): TrainingJobEvent {
  return { id: `e${++counter}`, type: 'gradient_step', data, ...(createdAt ? { created_at: createdAt } : {}) };
}

export function ended(createdAt?: string): TrainingJobEvent {
  return { id: `e${++counter}`, type: 'training_ended', data: {}, ...(createdAt ? { created_at: createdAt } : {}) };
}

export function failed(message: unknown, createdAt?: string): TrainingJobEvent {
  return { id: `e${++counter}`, type: 'training_failed', data: { error_message: message }, ...(createdAt ? { created_at: createdAt } : {}) };
}

export function other(type: string): TrainingJobEvent {
  return { id: `e${++counter}`, type, data: { note: 'x' } };
}

/**
 * Steps 1 to `last` with model steps from `firstModelStep`: reward climbs from 0.2 by 0.015 a step
 * to step 29, holds at 0.62 over steps 30–39, and falls to 0.31 from step 40; loss falls by 0.01 a
 * step to step 39 and jumps to 0.9 from step 40; entropy holds at 2 then falls to 1 from step 40;
 * the learning rate never changes.
 */
export function rewardDropRun(last = 60, firstModelStep = 1): TrainingJobEvent[] {
  const events: TrainingJobEvent[] = [started(100)];
  for (let k = 1; k <= last; k++) {
    const reward = k < 30 ? 0.2 + 0.015 * (k - 1) : k < 40 ? 0.62 : 0.31;
    const loss = k < 40 ? 1.2 - 0.01 * k : 0.9;
    const entropy = k < 40 ? 2 : 1;
    events.push(step({ step: firstModelStep + k - 1, loss, reward, entropy, learning_rate: 1e-5 }));
  }
  return events;
}
