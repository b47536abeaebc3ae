/** Variants of a subject test: list, by hand, generated from a blueprint, changed, deleted. */
import { call, type CallInput } from '../../../lib/call';
import { contentKeys, quiet } from './shared';

export type VariantBody = CallInput<'POST /api/admin/content/subjectTests/{id}/variants'>['body'];
export type GenerateBody = CallInput<'POST /api/admin/content/subjectTests/{id}/variants/generate'>['body'];

export const listVariants = (subjectTestId: number, signal?: AbortSignal) =>
  call(
    'GET /api/admin/content/subjectTests/{id}/variants',
    { params: { id: subjectTestId } },
    { ...quiet, signal },
  );

export const variantsQuery = (subjectTestId: number) => ({
  queryKey: contentKeys.variants(subjectTestId),
  queryFn: ({ signal }: { signal?: AbortSignal }) => listVariants(subjectTestId, signal),
});

export const createVariant = (subjectTestId: number, body: VariantBody) =>
  call('POST /api/admin/content/subjectTests/{id}/variants', { params: { id: subjectTestId }, body }, quiet);

export const generateVariants = (subjectTestId: number, body: GenerateBody) =>
  call(
    'POST /api/admin/content/subjectTests/{id}/variants/generate',
    { params: { id: subjectTestId }, body },
    quiet,
  );

export const updateVariant = (id: number, tasks: VariantBody['tasks']) =>
  call('PUT /api/admin/content/variants/{id}', { params: { id }, body: { tasks } }, quiet);

export const deleteVariant = (id: number) =>
  call('DELETE /api/admin/content/variants/{id}', { params: { id } }, quiet);
