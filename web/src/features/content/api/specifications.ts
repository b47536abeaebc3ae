/** Specifications (кодификаторы) and their element trees, with the spreadsheet import. */
import { call, type CallInput, type CallResult } from '../../../lib/call';
import { contentKeys, quiet, upload } from './shared';

export type SpecificationBody = CallInput<'POST /api/admin/content/specifications'>['body'];
export type SpecificationSummary = CallResult<'GET /api/admin/content/specifications'>[number];
export type ElementBody = CallInput<'POST /api/admin/content/specifications/{id}/elements'>['body'];

export const listSpecifications = (subjectId?: number, signal?: AbortSignal) =>
  call(
    'GET /api/admin/content/specifications',
    { query: subjectId === undefined ? {} : { subjectId } },
    { ...quiet, signal },
  );

export const specificationsQuery = (subjectId?: number) => ({
  queryKey: [...contentKeys.specifications, 'list', subjectId ?? null] as const,
  queryFn: ({ signal }: { signal?: AbortSignal }) => listSpecifications(subjectId, signal),
  staleTime: 30_000,
});

export const getSpecification = (id: number, signal?: AbortSignal) =>
  call('GET /api/admin/content/specifications/{id}', { params: { id } }, { ...quiet, signal });

export const specificationQuery = (id: number) => ({
  queryKey: contentKeys.specification(id),
  queryFn: ({ signal }: { signal?: AbortSignal }) => getSpecification(id, signal),
});

/** Create (no id) or change a specification. */
export const saveSpecification = (body: SpecificationBody, id?: number) =>
  id === undefined
    ? call('POST /api/admin/content/specifications', { body }, quiet)
    : call('PUT /api/admin/content/specifications/{id}', { params: { id }, body }, quiet);

export const deleteSpecification = (id: number) =>
  call('DELETE /api/admin/content/specifications/{id}', { params: { id } }, quiet);

export const addElement = (specificationId: number, body: ElementBody) =>
  call(
    'POST /api/admin/content/specifications/{id}/elements',
    { params: { id: specificationId }, body },
    quiet,
  );

export const updateElement = (id: number, body: ElementBody) =>
  call('PUT /api/admin/content/specificationElements/{id}', { params: { id }, body }, quiet);

export const deleteElement = (id: number) =>
  call('DELETE /api/admin/content/specificationElements/{id}', { params: { id } }, quiet);

/** Elements from an .xlsx or .csv file, all or nothing (400 `import_invalid` with the rows' errors). */
export function importElements(specificationId: number, file: File) {
  const form = new FormData();
  form.append('file', file, file.name);
  return upload('POST /api/admin/content/specifications/{id}/import', { id: specificationId }, form);
}
