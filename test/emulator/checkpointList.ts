/**
 * A model's checkpoints, kept sorted by step with an id → index map, so that a page after any
 * cursor is found without scanning (models can hold tens of thousands of checkpoints).
 */
import { pageFrom, type ListPage } from './paging';

export interface CheckpointRecord {
  id: string;
  step: number;
  metrics: Record<string, number>;
}

export class CheckpointList {
  private items: CheckpointRecord[] = [];
  private readonly indexById = new Map<string, number>();

  get size(): number {
    return this.items.length;
  }

  latest(): CheckpointRecord | undefined {
    return this.items.at(-1);
  }

  all(): readonly CheckpointRecord[] {
    return this.items;
  }

  byStep(step: number): CheckpointRecord | undefined {
    const index = this.findStep(step);
    return this.items[index]?.step === step ? this.items[index] : undefined;
  }

  has(id: string): boolean {
    return this.indexById.has(id);
  }

  /** Adds a checkpoint; one with the same step is replaced, as a re-saved step would be. */
  add(record: CheckpointRecord): void {
    const last = this.items.at(-1);
    if (!last || record.step > last.step) {
      this.indexById.set(record.id, this.items.length);
      this.items.push(record);
      return;
    }
    const index = this.findStep(record.step);
    if (this.items[index]?.step === record.step) {
      this.indexById.delete(this.items[index]!.id);
      this.items[index] = record;
      this.indexById.set(record.id, index);
      return;
    }
    this.items.splice(index, 0, record);
    this.reindexFrom(index);
  }

  deleteSteps(steps: number[]): { deletedCount: number; notFoundSteps: number[] } {
    const wanted = new Set(steps);
    const found = new Set<number>();
    for (const step of wanted) if (this.byStep(step)) found.add(step);
    if (found.size > 0) {
      for (const item of this.items) if (found.has(item.step)) this.indexById.delete(item.id);
      this.items = this.items.filter((item) => !found.has(item.step));
      this.reindexFrom(0);
    }
    return { deletedCount: found.size, notFoundSteps: [...wanted].filter((step) => !found.has(step)) };
  }

  /** A page in step order; undefined when `after` names no checkpoint of this model. */
  page(after: string | undefined, limit: number, order: 'asc' | 'desc'): ListPage<CheckpointRecord> | undefined {
    const direction = order === 'asc' ? 1 : -1;
    let start = order === 'asc' ? 0 : this.items.length - 1;
    if (after !== undefined) {
      const index = this.indexById.get(after);
      if (index === undefined) return undefined;
      start = index + direction;
    }
    return pageFrom(this.items.length, (index) => this.items[index]!, start, direction, limit);
  }

  /** Index of the first item whose step is >= `step` (binary search). */
  private findStep(step: number): number {
    let low = 0;
    let high = this.items.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.items[middle]!.step < step) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  private reindexFrom(start: number): void {
    for (let index = start; index < this.items.length; index++) this.indexById.set(this.items[index]!.id, index);
  }
}
