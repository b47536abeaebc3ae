/**
 * `/admin/content/tasks/new` and `/admin/content/tasks/:taskId`: the task editor (../task-editor,
 * loaded with the page). After a save the address follows the task now current (a new task, or
 * the new version an edit of a task used by works makes), and the pool and variants are re-read.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { TaskEditorPage } from '../task-editor';
import { contentKeys } from '../api/shared';
import { CONTENT_BASE } from './content-layout';

const positive = (value: string | null | undefined) => {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : undefined;
};

export function TaskEditorRoute() {
  const params = useParams();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const taskId = positive(params.taskId);
  const subjectId = positive(search.get('subjectId'));
  return (
    <TaskEditorPage
      taskId={taskId}
      subjectId={subjectId}
      onSaved={(task) => {
        // The pool, the variants that hold the task and their checks see the change.
        void queryClient.invalidateQueries({ queryKey: contentKeys.tasks });
        void queryClient.invalidateQueries({ queryKey: contentKeys.subjectTests });
        if (task.id !== taskId) navigate(`${CONTENT_BASE}/tasks/${task.id}`, { replace: true });
      }}
    />
  );
}
