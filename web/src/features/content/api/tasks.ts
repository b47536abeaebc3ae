/** The task pool (admin/content/tasks): list, one task, its versions and a trial score. */
import { call, callPath, type CallInput, type CallResult } from '../../../lib/call';
import { contentKeys, quiet, type ListCall } from './shared';

type ListRequest = CallInput<'POST /api/admin/content/tasks/list'>['body'];
export type TaskListItem = CallResult<'POST /api/admin/content/tasks/list'>['items'][number];
export type TaskVersion = CallResult<'GET /api/admin/content/tasks/{taskId}/versions'>[number];
export type TaskScore = CallResult<'POST /api/admin/content/tasks/{taskId}/score'>;

export const listTasks: ListCall<TaskListItem, ListRequest> = (body, signal) =>
  call('POST /api/admin/content/tasks/list', { body }, { ...quiet, signal });

export const getTask = (taskId: number, signal?: AbortSignal) =>
  call('GET /api/admin/content/tasks/{taskId}', { params: { taskId } }, { ...quiet, signal });

export const taskQuery = (taskId: number) => ({
  queryKey: contentKeys.task(taskId),
  queryFn: ({ signal }: { signal?: AbortSignal }) => getTask(taskId, signal),
});

export const taskVersionsQuery = (taskId: number) => ({
  queryKey: contentKeys.taskVersions(taskId),
  queryFn: ({ signal }: { signal?: AbortSignal }) =>
    call('GET /api/admin/content/tasks/{taskId}/versions', { params: { taskId } }, { ...quiet, signal }),
});

/** Scores a trial answer as a participant's would be scored; changes nothing. */
export const scoreTask = (taskId: number, value: unknown) =>
  call('POST /api/admin/content/tasks/{taskId}/score', { params: { taskId }, body: { value } }, quiet);

/** A task file (picture, document) as the runner loads it. */
export const filePath = (id: number) => callPath('GET /api/files/{id}', { id });
