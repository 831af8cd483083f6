import * as vscode from 'vscode';
import type { EventType, PayloadAnalysis, SampleEvent, SampleOverrides } from '../../model/payload';
import { payloadCore } from './payloadCore';

const overridesKey = 'rlStudio.payload.sampleOverrides';
const typeByFileKey = 'rlStudio.payload.sampleTypeByFile';

/**
 * The sample event each document is previewed and explained with. An automation uses its own event
 * type; a payload file uses the type chosen for it (LINK_ARTIFACT by default). Edited values are
 * kept per event type for the workspace.
 */
export class SampleEvents implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly state: vscode.Memento) {}

  typeFor(document: vscode.TextDocument, analysis: PayloadAnalysis | undefined): EventType {
    const { automationEventType, isEventType } = payloadCore();
    const fromAutomation = automationEventType(analysis?.automation);
    if (fromAutomation) return fromAutomation;
    const chosen = this.state.get<Record<string, string>>(typeByFileKey, {})[document.uri.toString()];
    return isEventType(chosen) ? chosen : 'LINK_ARTIFACT';
  }

  sampleFor(document: vscode.TextDocument, analysis: PayloadAnalysis | undefined): SampleEvent {
    return this.sampleOf(this.typeFor(document, analysis));
  }

  sampleOf(type: EventType): SampleEvent {
    return payloadCore().sampleEventWith(type, this.overrides()[type]);
  }

  async chooseType(uri: vscode.Uri, type: EventType): Promise<void> {
    const chosen = { ...this.state.get<Record<string, string>>(typeByFileKey, {}), [uri.toString()]: type };
    await this.state.update(typeByFileKey, chosen);
    this.changed.fire();
  }

  async setValue(type: EventType, part: 'values' | 'metadata', name: string, value: string): Promise<void> {
    await this.edit(type, (current) => {
      current[part] = { ...current[part], [name]: value };
      if (part === 'metadata') current.removedMetadata = current.removedMetadata?.filter((key) => key !== name);
    });
  }

  /** Removing a metadata key must hide its default too, so it is remembered as removed. */
  async removeMetadataKey(type: EventType, key: string): Promise<void> {
    await this.edit(type, (current) => {
      const metadata = { ...current.metadata };
      delete metadata[key];
      current.metadata = metadata;
      current.removedMetadata = [...new Set([...(current.removedMetadata ?? []), key])];
    });
  }

  async reset(type: EventType): Promise<void> {
    const all = { ...this.overrides() };
    delete all[type];
    await this.state.update(overridesKey, all);
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }

  private async edit(type: EventType, change: (current: SampleOverrides) => void): Promise<void> {
    const all = { ...this.overrides() };
    const current: SampleOverrides = { ...all[type] };
    change(current);
    all[type] = current;
    await this.state.update(overridesKey, all);
    this.changed.fire();
  }

  private overrides(): Partial<Record<EventType, SampleOverrides>> {
    return this.state.get<Partial<Record<EventType, SampleOverrides>>>(overridesKey, {});
  }
}
