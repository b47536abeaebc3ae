/** The help a reader gets (GET /api/help, GET /api/help/{id}): sections for their roles, the page's first. */
import { call } from '../../../lib/call';

const quiet = { suppressRedirect: true } as const;

export const helpListQuery = (page: string) => ({
  queryKey: ['help', 'list', page] as const,
  queryFn: ({ signal }: { signal?: AbortSignal }) =>
    call('GET /api/help', { query: { page } }, { ...quiet, signal }),
  staleTime: 60_000,
});

export const helpSectionQuery = (id: number) => ({
  queryKey: ['help', 'section', id] as const,
  queryFn: ({ signal }: { signal?: AbortSignal }) =>
    call('GET /api/help/{id}', { params: { id } }, { ...quiet, signal }),
  staleTime: 60_000,
});
