/**
 * Html containers (interactive tasks): the list, uploads of a container or of a new version (a zip
 * with the text fields first), and the signed link of a version for the preview frame.
 */
import { call } from '../../../lib/call';
import { quiet, upload } from './shared';

export const containerKeys = {
  all: ['content', 'containers'] as const,
  preview: (id: number, version: number | null) => ['content', 'containers', id, 'preview', version] as const,
};

export const listContainers = (signal?: AbortSignal) =>
  call('GET /api/admin/content/containers', {}, { ...quiet, signal });

export const containersQuery = {
  queryKey: containerKeys.all,
  queryFn: ({ signal }: { signal?: AbortSignal }) => listContainers(signal),
};

/** The fields go before the file: the server checks them before it reads the zip. */
function formOf(file: File, fields: { name?: string; entry?: string }) {
  const form = new FormData();
  if (fields.name?.trim()) form.append('name', fields.name.trim());
  if (fields.entry?.trim()) form.append('entry', fields.entry.trim());
  form.append('file', file, file.name);
  return form;
}

export const uploadContainer = (file: File, fields: { name: string; entry?: string }) =>
  upload('POST /api/admin/content/containers', undefined, formOf(file, fields));

export const uploadContainerVersion = (id: number, file: File, fields: { name?: string; entry?: string }) =>
  upload('POST /api/admin/content/containers/{id}/versions', { id }, formOf(file, fields));

/** A signed link lives 30 minutes: the preview asks again after 20. */
export const PREVIEW_FRESH_MS = 20 * 60_000;

export const containerPreviewQuery = (id: number, version: number | null) => ({
  queryKey: containerKeys.preview(id, version),
  queryFn: ({ signal }: { signal?: AbortSignal }) =>
    call(
      'GET /api/admin/content/containers/{id}/preview',
      { params: { id }, query: version === null ? {} : { version } },
      { ...quiet, signal },
    ),
  staleTime: PREVIEW_FRESH_MS,
  gcTime: PREVIEW_FRESH_MS,
});
