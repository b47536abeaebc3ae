import { asc, desc, type AnyColumn, type SQL } from 'drizzle-orm';

export interface SortSpec<F extends string> {
  field: F;
  dir: 'asc' | 'desc';
}

/** `sort` of a list request as an array (it may come as one object, an array, or not at all). */
export const sortList = <F extends string>(sort: SortSpec<F> | SortSpec<F>[] | undefined): SortSpec<F>[] =>
  sort === undefined ? [] : Array.isArray(sort) ? sort : [sort];

/**
 * ORDER BY of a list: only the whitelisted columns of `columns` can be named (the request schema
 * already refused other fields), then `tieBreak` so pages stay stable when the sort field has ties.
 */
export function orderOf<F extends string>(
  sort: SortSpec<F> | SortSpec<F>[] | undefined,
  columns: Record<F, AnyColumn | SQL>,
  tieBreak: AnyColumn,
): SQL[] {
  const order = sortList(sort).map((s) =>
    s.dir === 'desc' ? desc(columns[s.field]) : asc(columns[s.field]),
  );
  order.push(asc(tieBreak));
  return order;
}

export const offsetOf = (q: { page: number; pageSize: number }) => (q.page - 1) * q.pageSize;

/** `ilike` pattern for "contains", with the wildcards of the search text escaped. */
export const containsPattern = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** A list's items and the count of all its rows, run side by side: `{ items, total }`. */
export async function paged<T>(
  items: PromiseLike<T[]>,
  total: PromiseLike<{ n: number }[]>,
): Promise<{ items: T[]; total: number }> {
  const [rows, [t]] = await Promise.all([items, total]);
  return { items: rows, total: t?.n ?? 0 };
}

/** A select with its FROM and WHERE: what `listPage` orders and cuts to a page. */
interface PageableSelect<T> {
  orderBy(...order: SQL[]): { limit(n: number): { offset(n: number): PromiseLike<T[]> } };
}

/**
 * One page of a list in `order` (`rows`: the select up to its WHERE) and the count of all its rows
 * (`total`: `{ n: count() }` under the same WHERE).
 */
export const listPage = <T>(
  rows: PageableSelect<T>,
  order: SQL[],
  q: { page: number; pageSize: number },
  total: PromiseLike<{ n: number }[]>,
) =>
  paged(
    rows
      .orderBy(...order)
      .limit(q.pageSize)
      .offset(offsetOf(q)),
    total,
  );
