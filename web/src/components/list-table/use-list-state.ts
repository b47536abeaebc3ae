import { useCallback, useMemo, useState } from 'react';

export interface SortState<F extends string = string> {
  field: F;
  dir: 'asc' | 'desc';
}

/** Paging, sorting and filtering of a server list (`POST …/list`, DESIGN.md §8). */
export function useListState<F extends string, Filter extends object>(init: {
  sort?: SortState<F>;
  filter?: Filter;
  pageSize?: number;
}) {
  const [page, setPage] = useState(1);
  const [pageSize, setPageSizeState] = useState(init.pageSize ?? 20);
  const [sort, setSortState] = useState<SortState<F> | undefined>(init.sort);
  const [filter, setFilterState] = useState<Filter>(init.filter ?? ({} as Filter));

  /** A changed filter starts from the first page again. */
  const setFilter = useCallback((patch: Partial<Filter>) => {
    setFilterState((current) => ({ ...current, ...patch }));
    setPage(1);
  }, []);

  /** Clicking the sorted column flips the direction; another column sorts ascending. */
  const toggleSort = useCallback((field: F) => {
    setSortState((current) =>
      current?.field === field
        ? { field, dir: current.dir === 'asc' ? 'desc' : 'asc' }
        : { field, dir: 'asc' },
    );
    setPage(1);
  }, []);

  const setPageSize = useCallback((size: number) => {
    setPageSizeState(size);
    setPage(1);
  }, []);

  /** Empty filter values are left out: the server treats absent as "any". */
  const request = useMemo(() => {
    const cleaned = Object.fromEntries(
      Object.entries(filter).filter(([, v]) => v !== undefined && v !== null && v !== ''),
    ) as Partial<Filter>;
    return {
      page,
      pageSize,
      ...(sort ? { sort } : {}),
      ...(Object.keys(cleaned).length ? { filter: cleaned } : {}),
    };
  }, [page, pageSize, sort, filter]);

  return { page, setPage, pageSize, setPageSize, sort, toggleSort, filter, setFilter, request };
}
export type ListState<F extends string, Filter extends object> = ReturnType<typeof useListState<F, Filter>>;
