/** The common list call of docs/design.md §8: `POST .../list {page,pageSize,sort,filter}` → `{items,total}`. */
import type { ListResponse } from '@attesta/contract';

/** `F` narrows the sort fields to the list's own (the contract's `…SortField`). */
export interface SortState<F extends string = string> {
  field: F;
  dir: 'asc' | 'desc';
}

export interface PageRequest<F extends string = string, Filter extends object = Record<string, unknown>> {
  page: number;
  pageSize: number;
  sort?: SortState<F>;
  /** Only the filter values that are set (see `cleanFilter`). */
  filter?: Partial<Filter>;
}

export type FetchPage<T, F extends string = string, Filter extends object = Record<string, unknown>> = (
  request: PageRequest<F, Filter>,
  signal?: AbortSignal,
) => Promise<ListResponse<T>>;

/** The servers' filters are strict: empty inputs are left out rather than sent as '' or null. */
export function cleanFilter<Filter extends object>(filter: Filter | undefined): Partial<Filter> | undefined {
  if (!filter) return undefined;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(filter)) {
    if (value === undefined || value === null) continue;
    if (typeof value === 'string' && value.trim() === '') continue;
    out[key] = typeof value === 'string' ? value.trim() : value;
  }
  return Object.keys(out).length ? (out as Partial<Filter>) : undefined;
}

export const EXPORT_PAGE_SIZE = 500;

/** Every page of the current filter and sort, for an export. */
export async function fetchAllPages<T, F extends string, Filter extends object>(
  fetchPage: FetchPage<T, F, Filter>,
  base: Omit<PageRequest<F, Filter>, 'page' | 'pageSize'>,
): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; ; page += 1) {
    const answer = await fetchPage({ ...base, page, pageSize: EXPORT_PAGE_SIZE });
    items.push(...answer.items);
    if (answer.items.length === 0 || items.length >= answer.total) return items;
  }
}
