import type * as vscode from 'vscode';
import { canaryPinsKey } from '../../../platform/host/rememberedItems';
import { maxPins, readPins, type CanaryPin } from '../../model/canary/canaryPins';

/**
 * The canaries pinned in this workspace, for the training API they were pinned against (a model id
 * names a model of one platform only). Written whole on each change; read back through readPins.
 */
export class CanaryPinStore {
  constructor(
    private readonly state: vscode.Memento,
    private readonly trainingApiUrl: () => string,
  ) {}

  list(): CanaryPin[] {
    return readPins(this.state.get<unknown>(this.key()));
  }

  get(modelId: string): CanaryPin | undefined {
    return this.list().find((pin) => pin.modelId === modelId);
  }

  async put(pin: CanaryPin): Promise<void> {
    const others = this.list().filter((existing) => existing.modelId !== pin.modelId);
    await this.state.update(this.key(), [...others, pin].slice(-maxPins));
  }

  async remove(modelId: string): Promise<void> {
    await this.state.update(
      this.key(),
      this.list().filter((pin) => pin.modelId !== modelId),
    );
  }

  /** Records that a model's checkpoints up to `step` were seen (evaluated or skipped). */
  async seen(modelId: string, step: number): Promise<void> {
    const pin = this.get(modelId);
    if (pin && step > pin.seenStep) await this.put({ ...pin, seenStep: step });
  }

  private key(): string {
    return canaryPinsKey(this.trainingApiUrl());
  }
}
