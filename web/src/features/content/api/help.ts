/** Help sections and html texts as the admin writes them (/api/admin/help, /api/admin/htmltexts). */
import type { AdminHelpSaveBody, AdminHtmlTextSaveBody } from '@attesta/contract';
import { call } from '../../../lib/call';
import { quiet } from './shared';

export const helpKeys = {
  sections: ['content', 'help'] as const,
  texts: ['content', 'htmlTexts'] as const,
};

export const helpSectionsQuery = () => ({
  queryKey: helpKeys.sections,
  queryFn: ({ signal }: { signal?: AbortSignal }) => call('GET /api/admin/help', {}, { ...quiet, signal }),
});

export const saveHelpSection = (body: AdminHelpSaveBody, id?: number) =>
  id === undefined
    ? call('POST /api/admin/help', { body }, quiet)
    : call('PUT /api/admin/help/{id}', { params: { id }, body }, quiet);

export const deleteHelpSection = (id: number) =>
  call('DELETE /api/admin/help/{id}', { params: { id } }, quiet);

export const htmlTextsQuery = () => ({
  queryKey: helpKeys.texts,
  queryFn: ({ signal }: { signal?: AbortSignal }) =>
    call('GET /api/admin/htmltexts', {}, { ...quiet, signal }),
});

export const saveHtmlText = (body: AdminHtmlTextSaveBody, id?: number) =>
  id === undefined
    ? call('POST /api/admin/htmltexts', { body }, quiet)
    : call('PUT /api/admin/htmltexts/{id}', { params: { id }, body }, quiet);
