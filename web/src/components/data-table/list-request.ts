/** The common list call of DESIGN.md §8: `POST .../list {page,pageSize,sort,filter}` → `{items,total}`. */
import type { ListResponse } from '@attesta/contract';

export interface SortState {
  field: string;
  dir: 'asc' | 'desc';
}

export interface PageRequest {
  page: number;
  pageSize: number;
  sort?: SortState;
  filter?: Record<string, unknown>;
}

export type FetchPage<T> = (request: PageRequest, signal?: AbortSignal) => Promise<ListResponse<T>>;

/** The servers' filters are strict: empty inputs are left out rather than sent as '' or null. */
export function cleanFilter(
  filter: Record<string, unknown> | undefined,
): Record<string, unknown> | undefined {
  if (!filter) return undefined;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(filter)) {
    if (value === undefined || value === null) continue;
    if (typeof value === 'string' && value.trim() === '') continue;
    out[key] = typeof value === 'string' ? value.trim() : value;
  }
  return Object.keys(out).length ? out : undefined;
}

export const EXPORT_PAGE_SIZE = 500;

/** Every page of the current filter and sort, for an export. */
export async function fetchAllPages<T>(
  fetchPage: FetchPage<T>,
  base: Omit<PageRequest, 'page' | 'pageSize'>,
): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; ; page += 1) {
    const answer = await fetchPage({ ...base, page, pageSize: EXPORT_PAGE_SIZE });
    items.push(...answer.items);
    if (answer.items.length === 0 || items.length >= answer.total) return items;
  }
}
