/**
 * Names of the files attached to an answer, from GET /api/files/{id}/ext (the name the caller may
 * be shown: the participant and the school's staff see the original name, an expert a neutral
 * one). A file the caller cannot look up (offline, no longer there) is simply not in the map: the
 * screen names it by its place in the list, never by its id.
 */
import { useQueries } from '@tanstack/react-query';
import { call } from '../../lib/call';

export interface FileInfo {
  name: string;
  size: number;
  mime: string;
}

export const fileInfoKey = (id: number) => ['files', 'info', id] as const;

export function useFileInfos(ids: readonly number[], enabled = true): ReadonlyMap<number, FileInfo> {
  const results = useQueries({
    queries: ids.map((id) => ({
      queryKey: fileInfoKey(id),
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        call('GET /api/files/{id}/ext', { params: { id } }, { suppressRedirect: true, signal }),
      enabled,
      staleTime: Infinity,
      retry: false,
      // A name is a nicety: a failed look-up must not put the page in an error state.
      throwOnError: false,
    })),
  });
  const infos = new Map<number, FileInfo>();
  results.forEach((result, i) => {
    if (result.data) infos.set(ids[i]!, result.data);
  });
  return infos;
}
