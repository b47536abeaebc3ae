/** Specifications (кодификаторы) for the classifier picker. */
import { call } from '../../../../lib/call';

export const listSpecifications = (subjectId: number | null) =>
  call(
    'GET /api/admin/content/specifications',
    { query: subjectId === null ? {} : { subjectId } },
    { suppressRedirect: true },
  );

export const getSpecification = (id: number) =>
  call('GET /api/admin/content/specifications/{id}', { params: { id } }, { suppressRedirect: true });
