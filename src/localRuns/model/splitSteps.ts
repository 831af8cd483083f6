/**
 * The steps of one split as the run view shows them: each step file listed, with its figures once
 * read or the reason it could not be. A new listing (a step logged while the view is open) keeps
 * the figures of files that did not change and says which files need reading.
 */
import { basename } from 'node:path';
import type { StepRow } from '../protocol';
import type { StepFile, StepListing } from './discovery';
import type { StepResult } from './runReading';

export class SplitSteps {
  private readonly files = new Map<number, StepFile>();
  private readonly rows = new Map<number, StepRow>();
  more = false;

  /** Takes a listing; returns the step files to read (new, or changed in size). */
  relist(listing: StepListing): StepFile[] {
    const toRead: StepFile[] = [];
    const listed = new Set<number>();
    for (const file of listing.steps) {
      listed.add(file.step);
      const known = this.files.get(file.step);
      const row = this.rows.get(file.step);
      this.files.set(file.step, file);
      if (known && row && known.path === file.path && known.bytes === file.bytes && row.state !== 'pending') continue;
      this.rows.set(file.step, { step: file.step, fileName: basename(file.path), bytes: file.bytes, state: 'pending' });
      toRead.push(file);
    }
    for (const step of [...this.files.keys()]) {
      if (listed.has(step)) continue;
      this.files.delete(step);
      this.rows.delete(step);
    }
    this.more = listing.more;
    return toRead;
  }

  /** A file that changed on disk: its step, to read again (undefined when it is not listed). */
  changed(path: string): StepFile | undefined {
    for (const [step, file] of this.files) {
      if (file.path !== path) continue;
      this.rows.set(step, { step, fileName: basename(path), bytes: file.bytes, state: 'pending' });
      return file;
    }
    return undefined;
  }

  /** Records what was read; returns the rows that changed (a step no longer listed is left out). */
  record(results: readonly StepResult[]): StepRow[] {
    const changed: StepRow[] = [];
    for (const result of results) {
      if (this.files.get(result.step.step)?.path !== result.step.path) continue;
      const row: StepRow = { step: result.step.step, fileName: basename(result.step.path), bytes: result.step.bytes, state: result.figures ? 'read' : 'failed' };
      if (result.figures) row.figures = result.figures;
      else row.reason = result.reason ?? 'the file could not be read';
      this.rows.set(row.step, row);
      changed.push(row);
    }
    return changed;
  }

  /**
   * Whether a listing's step file names are the ones listed: a cheap look (names only, no sizes) at
   * a split folder that tells whether a step appeared or went.
   */
  sameNames(names: readonly string[]): boolean {
    if (names.length !== this.files.size) return false;
    const known = new Set([...this.files.values()].map((file) => basename(file.path)));
    return names.every((name) => known.has(name));
  }

  /** Every row, in step order. */
  list(): StepRow[] {
    return [...this.rows.values()].sort((a, b) => a.step - b.step);
  }

  file(step: number): StepFile | undefined {
    return this.files.get(step);
  }
}
