/** The report page's state in its address: filters, the open tab and the tabs' own choices. */
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { readFilters, writeFilters, type ReportFilterValues } from '../lib/filters';

export type ParamChange = Partial<ReportFilterValues> & Record<string, string | number | null | undefined>;

export function useReportParams() {
  const [params, setParams] = useSearchParams();
  // Changes may come faster than the router moves (two fields in one moment, a navigation still
  // running its loaders): each builds on the last address asked for, not on the one shown, until
  // every address asked for has been reached. An address nobody here asked for (a link, Back)
  // starts over from it.
  const latest = useRef(params);
  const asked = useRef<string[]>([]);
  const shown = useRef(params.toString());
  useEffect(() => {
    const current = params.toString();
    if (current === shown.current) return;
    shown.current = current;
    const reached = asked.current.indexOf(current);
    asked.current = reached === -1 ? [] : asked.current.slice(reached + 1);
    if (asked.current.length === 0) latest.current = params;
  }, [params]);
  const filters = useMemo(() => readFilters(params), [params]);
  const update = useCallback(
    (change: ParamChange) => {
      const next = writeFilters(latest.current, change);
      latest.current = next;
      asked.current.push(next.toString());
      setParams(next, { replace: true });
    },
    [setParams],
  );
  return { params, filters, update };
}
