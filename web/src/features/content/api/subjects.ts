/** Subjects and their exams (admin/content/subjects, subjectExams). */
import type { AuthoringSubjectBody } from '@attesta/contract';
import { call, type CallInput } from '../../../lib/call';
import { contentKeys, quiet } from './shared';

export type SubjectExamBody = CallInput<'POST /api/admin/content/subjects/{id}/exams'>['body'];

export const listSubjects = (signal?: AbortSignal) =>
  call('GET /api/admin/content/subjects', {}, { ...quiet, signal });

/** Every subject (a platform has tens of them), for tables and pickers. */
export const subjectsQuery = () => ({
  queryKey: contentKeys.subjects,
  queryFn: ({ signal }: { signal?: AbortSignal }) => listSubjects(signal),
  staleTime: 30_000,
});

/** Create (no id) or rename a subject. */
export const saveSubject = (body: AuthoringSubjectBody, id?: number) =>
  id === undefined
    ? call('POST /api/admin/content/subjects', { body }, quiet)
    : call('PUT /api/admin/content/subjects/{id}', { params: { id }, body }, quiet);

export const listSubjectExams = (subjectId: number, signal?: AbortSignal) =>
  call('GET /api/admin/content/subjects/{id}/exams', { params: { id: subjectId } }, { ...quiet, signal });

export const subjectExamsQuery = (subjectId: number) => ({
  queryKey: contentKeys.exams(subjectId),
  queryFn: ({ signal }: { signal?: AbortSignal }) => listSubjectExams(subjectId, signal),
  staleTime: 30_000,
});

/** Add an exam of a kind to a subject (no exam id), or change one. */
export const saveSubjectExam = (subjectId: number, body: SubjectExamBody, examId?: number) =>
  examId === undefined
    ? call('POST /api/admin/content/subjects/{id}/exams', { params: { id: subjectId }, body }, quiet)
    : call('PUT /api/admin/content/subjectExams/{id}', { params: { id: examId }, body }, quiet);
