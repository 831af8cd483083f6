/**
 * The groups list's rows, fetched from the host in pages as the list scrolls. Only a few pages are
 * kept (the ones on screen are never dropped), only a few requests are in flight at once, and a
 * page is asked for only while it is still wanted when a request slot frees up: scrolling fast past
 * a thousand pages asks for the few the list stops at, not for all of them. A new query starts
 * afresh (replies to the old one are ignored); a new version of the file keeps the rows shown and
 * asks the wanted pages again, so the list never blanks while the file grows.
 */
import type { GroupQuery, GroupRow, RowsPage } from '../model/inspectorModel';
import { maxRowsPerPage } from '../model/inspectorModel';
import { errorMessage } from '../../platform/client/errorMessage';

export const rowsPerPage = 50;
/** Pages kept: a few screens around the one shown. */
export const maxCachedPages = 40;
const maxInFlight = 2;

interface CachedPage {
  rows: GroupRow[];
  version: number;
}

export type FetchRows = (query: GroupQuery, start: number, count: number) => Promise<RowsPage>;

export class RowSource {
  /** Insertion order is recency: the first entries are the least recently used. */
  private readonly pages = new Map<number, CachedPage>();
  /** Page start → the file version it was last asked at (not asked twice for one version). */
  private readonly asked = new Map<number, number>();
  private readonly inFlight = new Set<number>();
  private generation = 0;
  private wantFirst = 0;
  private wantLast = -1;
  private fileVersion = 0;
  /** Groups that match the query; undefined until the first page of the query arrives. */
  total: number | undefined;
  /** The last failure to fetch rows, in words; cleared by the next page that arrives. */
  failure: string | undefined;

  constructor(
    private readonly fetch: FetchRows,
    private query: GroupQuery,
    private readonly onChange: () => void,
  ) {}

  get currentQuery(): GroupQuery {
    return this.query;
  }

  /** Rows being fetched right now (the list shows that it waits). */
  get busy(): boolean {
    return this.inFlight.size > 0;
  }

  get cachedPages(): number {
    return this.pages.size;
  }

  /** Starts over for another query: nothing of the old one is shown or kept. */
  setQuery(query: GroupQuery): void {
    this.query = query;
    this.generation++;
    this.pages.clear();
    this.asked.clear();
    this.inFlight.clear();
    this.total = undefined;
    this.failure = undefined;
    this.pump();
  }

  /** The file changed: rows stay shown until their fresh pages arrive. */
  setVersion(version: number): void {
    if (version <= this.fileVersion) return;
    this.fileVersion = version;
    this.pump();
  }

  /** Asks again for the pages whose fetch failed. */
  retry(): void {
    this.asked.clear();
    this.failure = undefined;
    this.pump();
  }

  /** The positions the list shows (with its margin); pages outside may be dropped. */
  want(first: number, last: number): void {
    this.wantFirst = Math.max(0, first);
    this.wantLast = last;
    this.pump();
  }

  row(position: number): GroupRow | undefined {
    const start = pageStart(position);
    return this.pages.get(start)?.rows[position - start];
  }

  /**
   * The group indices at positions [from, to] of the list, fetching the pages not kept in chunks
   * as large as the host allows; undefined when the query changed meanwhile.
   */
  async indicesBetween(from: number, to: number, limit: number): Promise<number[] | undefined> {
    const generation = this.generation;
    const last = Math.min(to, from + limit - 1, (this.total ?? 0) - 1);
    const indices: number[] = [];
    for (let position = from; position <= last;) {
      const kept = this.row(position);
      if (kept) {
        indices.push(kept.index);
        position++;
        continue;
      }
      const page = await this.fetch(this.query, position, Math.min(maxRowsPerPage, last - position + 1));
      if (generation !== this.generation) return undefined;
      if (page.rows.length === 0) break;
      for (const row of page.rows) indices.push(row.index);
      position += page.rows.length;
    }
    return indices;
  }

  private pump(): void {
    if (this.inFlight.size >= maxInFlight) return;
    const first = pageStart(this.wantFirst);
    const lastPosition = this.total === undefined ? Math.max(this.wantLast, 0) : Math.min(this.wantLast, this.total - 1);
    if (lastPosition < first) return;
    // The pages nearest the middle of the screen first.
    const middle = pageStart(Math.floor((this.wantFirst + lastPosition) / 2));
    const starts: number[] = [];
    for (let start = first; start <= lastPosition; start += rowsPerPage) starts.push(start);
    starts.sort((a, b) => Math.abs(a - middle) - Math.abs(b - middle));
    for (const start of starts) {
      if (this.inFlight.size >= maxInFlight) return;
      if (this.inFlight.has(start)) continue;
      const page = this.pages.get(start);
      if (page && page.version >= this.fileVersion) continue;
      if ((this.asked.get(start) ?? -1) >= this.fileVersion) continue;
      void this.request(start);
    }
  }

  private async request(start: number): Promise<void> {
    const generation = this.generation;
    this.inFlight.add(start);
    this.asked.set(start, this.fileVersion);
    let reply: RowsPage | undefined;
    try {
      reply = await this.fetch(this.query, start, rowsPerPage);
    } catch (error) {
      if (generation !== this.generation) return;
      this.failure = errorMessage(error);
    }
    if (generation !== this.generation) return;
    this.inFlight.delete(start);
    if (reply) this.store(start, reply);
    this.onChange();
    this.pump();
  }

  private store(start: number, reply: RowsPage): void {
    this.failure = undefined;
    this.total = reply.total;
    if (reply.version > this.fileVersion) this.fileVersion = reply.version;
    this.pages.delete(start);
    this.pages.set(start, { rows: reply.start === start ? reply.rows.slice(0, rowsPerPage) : [], version: reply.version });
    this.evict();
  }

  /** Drops the least recently fetched pages beyond the bound, never one the list shows. */
  private evict(): void {
    if (this.pages.size <= maxCachedPages) return;
    const keepFrom = pageStart(this.wantFirst);
    for (const start of this.pages.keys()) {
      if (this.pages.size <= maxCachedPages) return;
      if (start >= keepFrom && start <= this.wantLast) continue;
      this.pages.delete(start);
      this.asked.delete(start);
    }
  }
}

function pageStart(position: number): number {
  return Math.floor(position / rowsPerPage) * rowsPerPage;
}
