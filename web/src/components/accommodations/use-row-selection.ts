import { useCallback, useState } from 'react';

/**
 * The rows a table's checkboxes select (by id), for setting the same accommodations for many:
 * the coordinator's and admin's students and the admin's workers.
 */
export function useRowSelection() {
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const toggleSelected = useCallback(
    (id: number, on: boolean) =>
      setSelected((prev) => {
        const next = new Set(prev);
        if (on) next.add(id);
        else next.delete(id);
        return next;
      }),
    [],
  );
  const clearSelected = useCallback(() => setSelected(new Set()), []);
  return { selected, toggleSelected, clearSelected };
}
