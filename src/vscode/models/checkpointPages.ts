import type { Checkpoint } from '../../api/types';
import { CursorPager } from '../../core/cursorPager';
import type { Services } from '../services';

/** Checkpoints are listed newest first, 100 per request (the platform's maximum page). */
export const checkpointPageSize = 100;

/** One pager per training model, kept while the view lives so expanding again costs nothing. */
export class CheckpointPages {
  private readonly pagers = new Map<string, CursorPager<Checkpoint>>();

  constructor(private readonly services: Services) {}

  of(modelId: string): CursorPager<Checkpoint> {
    let pager = this.pagers.get(modelId);
    if (!pager) {
      pager = new CursorPager<Checkpoint>(async (after, signal) => {
        const client = await this.services.client();
        return client.training.listCheckpoints(modelId, { after, limit: checkpointPageSize, order: 'desc' }, { signal });
      });
      this.pagers.set(modelId, pager);
    }
    return pager;
  }

  /** Forgets every loaded page (and aborts loads in flight). */
  resetAll(): void {
    for (const pager of this.pagers.values()) pager.reset();
    this.pagers.clear();
  }

  forget(modelId: string): void {
    this.pagers.get(modelId)?.reset();
    this.pagers.delete(modelId);
  }
}
