/** The html containers a task may be shown in, and a signed link to one for the preview frame. */
import { call } from '../../../../lib/call';
import { taskEditorKeys } from './tasks';

export const containerListQuery = {
  queryKey: [...taskEditorKeys.all, 'containers'] as const,
  queryFn: ({ signal }: { signal?: AbortSignal }) =>
    call('GET /api/admin/content/containers', {}, { suppressRedirect: true, signal }),
};

/** The current version's signed link; it lives 30 minutes, so it is asked again after 20. */
export const containerLinkQuery = (id: number) => ({
  queryKey: [...taskEditorKeys.all, 'container-link', id] as const,
  queryFn: ({ signal }: { signal?: AbortSignal }) =>
    call(
      'GET /api/admin/content/containers/{id}/preview',
      { params: { id }, query: {} },
      { suppressRedirect: true, signal },
    ),
  staleTime: 20 * 60_000,
  gcTime: 20 * 60_000,
});
