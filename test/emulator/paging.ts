/** Cursor pages (`after` = id of the last item seen), shared by checkpoints and job events. */

export interface ListPage<T> {
  object: 'list';
  data: T[];
  first_id: string;
  last_id: string;
  has_more: boolean;
}

/**
 * Takes up to `limit` items starting at index `start` and walking in `direction`, from a list
 * read through `at` so that callers keep their own storage.
 */
export function pageFrom<T extends { id: string }>(length: number, at: (index: number) => T, start: number, direction: 1 | -1, limit: number): ListPage<T> {
  const data: T[] = [];
  let index = start;
  while (data.length < limit && index >= 0 && index < length) {
    data.push(at(index));
    index += direction;
  }
  return {
    object: 'list',
    data,
    first_id: data[0]?.id ?? '',
    last_id: data.at(-1)?.id ?? '',
    has_more: index >= 0 && index < length,
  };
}
