import { useCallback, useState } from 'react';

/**
 * The filter inputs of a list page: `set({ search })` changes some values and keeps the others.
 * Hand the filter to `DataTable`, which leaves out empty values and starts again at page 1.
 */
export function useFilter<Filter extends object>(
  initial: Filter,
): [Filter, (patch: Partial<Filter>) => void] {
  const [filter, setFilter] = useState<Filter>(initial);
  const set = useCallback((patch: Partial<Filter>) => setFilter((current) => ({ ...current, ...patch })), []);
  return [filter, set];
}
