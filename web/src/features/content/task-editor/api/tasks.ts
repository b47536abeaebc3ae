/** The task calls of the content authoring API (admin content tasks), one function per call. */
import type {
  AuthoringTask,
  TaskCreateBody,
  taskCreateBodySchema,
  TaskScoreResult,
  TaskUpdateBody,
  taskUpdateBodySchema,
} from '@attesta/contract';
import type { z } from 'zod';
import { call } from '../../../../lib/call';

export type CreateBody = z.input<typeof taskCreateBodySchema>;
export type UpdateBody = z.input<typeof taskUpdateBodySchema>;
export type { AuthoringTask, TaskCreateBody, TaskScoreResult, TaskUpdateBody };

/** Query keys of this editor's reads. */
export const taskEditorKeys = {
  all: ['content', 'task-editor'] as const,
  task: (taskId: number) => [...taskEditorKeys.all, 'task', taskId] as const,
  versions: (taskId: number) => [...taskEditorKeys.all, 'versions', taskId] as const,
  specifications: (subjectId: number | null) => [...taskEditorKeys.all, 'specifications', subjectId] as const,
  specification: (id: number) => [...taskEditorKeys.all, 'specification', id] as const,
};

export const getTask = (taskId: number) =>
  call('GET /api/admin/content/tasks/{taskId}', { params: { taskId } }, { suppressRedirect: true });

export const createTask = (body: CreateBody) =>
  call('POST /api/admin/content/tasks', { body }, { suppressRedirect: true });

export const updateTask = (taskId: number, body: UpdateBody) =>
  call('PUT /api/admin/content/tasks/{taskId}', { params: { taskId }, body }, { suppressRedirect: true });

export const getTaskVersions = (taskId: number) =>
  call('GET /api/admin/content/tasks/{taskId}/versions', { params: { taskId } }, { suppressRedirect: true });

export const scoreTask = (taskId: number, value: unknown) =>
  call(
    'POST /api/admin/content/tasks/{taskId}/score',
    { params: { taskId }, body: { value } },
    { suppressRedirect: true },
  );

export const setTaskElements = (taskId: number, elementIds: number[]) =>
  call(
    'PUT /api/admin/content/tasks/{taskId}/elements',
    { params: { taskId }, body: { elementIds } },
    { suppressRedirect: true },
  );
