/**
 * The editor's state: the task as loaded (or a new one), the draft being edited, its problems
 * (the contract's task model, checked before sending, and the server's 400 field errors), and
 * saving: create, or update (a task a started work uses gets a new version, which the page names)
 * and the classifiers, which change in place on the current version.
 */
import type { AnswerType, AuthoringTask, FileInfo } from '@attesta/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ApiError } from '../../../../lib/api-client';
import { describeApiError } from '../../../../lib/form-errors';
import { createTask, getTask, setTaskElements, taskEditorKeys, updateTask } from '../api/tasks';
import { createBodyOf, defaultParts, draftOf, newDraft, updateBodyOf, type TaskDraft } from '../model/draft';
import { problemsOf, type Problems } from '../model/fields';
import { serverProblems, validateDraft, type Problem } from '../model/validate';
import { useTaskEditorT } from '../locales';

export type SaveOutcome =
  | { kind: 'created'; task: AuthoringTask }
  | { kind: 'saved'; task: AuthoringTask }
  | { kind: 'newVersion'; task: AuthoringTask };

/**
 * What the last save said, by the id now current: a page that moves to the task's own address
 * after a save (a new task, a new version) mounts a new editor, which still says it.
 */
const recentOutcomes = new Map<number, { outcome: SaveOutcome; at: number }>();
const OUTCOME_KEPT_MS = 5000;
/** Read while rendering (a render may be dropped and done again); forgotten once the editor is on screen. */
function keptOutcome(taskId: number | undefined): SaveOutcome | null {
  const kept = taskId === undefined ? undefined : recentOutcomes.get(taskId);
  return kept && Date.now() - kept.at < OUTCOME_KEPT_MS ? kept.outcome : null;
}

const sameIds = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && [...a].sort().every((x, i) => x === [...b].sort()[i]);

export function useTaskEditor({
  taskId,
  subjectId,
  onSaved,
}: {
  taskId?: number;
  subjectId?: number;
  onSaved?: (task: AuthoringTask) => void;
}) {
  const { t } = useTaskEditorT();
  const queryClient = useQueryClient();
  const [currentId, setCurrentId] = useState<number | undefined>(taskId);
  const [loadedFor, setLoadedFor] = useState<number | undefined>(undefined);
  const [draft, setDraft] = useState<TaskDraft>(() => newDraft());
  /** The draft as last saved or loaded: what the server scores in the preview. */
  const [saved, setSaved] = useState<string | null>(null);
  const [task, setTask] = useState<AuthoringTask | null>(null);
  const [files, setFiles] = useState<FileInfo[]>([]);
  const [attempted, setAttempted] = useState(false);
  const [serverList, setServerList] = useState<Problem[]>([]);
  const [formError, setFormError] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<SaveOutcome | null>(() => keptOutcome(taskId));
  useEffect(() => {
    if (taskId !== undefined) recentOutcomes.delete(taskId);
  }, [taskId]);
  const [saving, setSaving] = useState(false);
  const savingRef = useRef(false);

  const query = useQuery({
    queryKey: taskEditorKeys.task(currentId ?? 0),
    queryFn: () => getTask(currentId!),
    enabled: currentId !== undefined,
    staleTime: Infinity,
    retry: false,
  });

  // A loaded task becomes the draft once per id (a later refetch does not overwrite edits).
  if (query.data && loadedFor !== query.data.id) {
    const loaded = draftOf(query.data);
    setLoadedFor(query.data.id);
    setTask(query.data);
    setDraft(loaded);
    setSaved(JSON.stringify(loaded));
    setFiles(query.data.files.map((f) => ({ ...f, size: 0 })));
  }

  const update = useCallback((patch: Partial<TaskDraft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    setOutcome(null);
  }, []);

  const changeType = useCallback((type: AnswerType) => {
    setDraft((d) => ({ ...d, answerType: type, ...defaultParts(type) }));
    setServerList([]);
  }, []);

  const localList = useMemo(() => (attempted ? validateDraft(draft, t) : []), [attempted, draft, t]);
  const problems: Problems = useMemo(() => {
    const list = [...localList];
    for (const p of serverList) if (!list.some((q) => q.path === p.path)) list.push(p);
    return problemsOf(list);
  }, [localList, serverList]);

  const dirty = saved === null || saved !== JSON.stringify(draft);

  const save = useCallback(async (): Promise<boolean> => {
    if (savingRef.current) return false;
    setAttempted(true);
    setFormError(null);
    setServerList([]);
    setOutcome(null);
    if (validateDraft(draft, t).length) return false;
    if (currentId === undefined && subjectId === undefined) return false;
    savingRef.current = true;
    setSaving(true);
    try {
      let result: AuthoringTask;
      let kind: SaveOutcome['kind'];
      if (currentId === undefined) {
        result = await createTask(createBodyOf(draft, subjectId!));
        kind = 'created';
      } else {
        result = await updateTask(currentId, updateBodyOf(draft));
        kind = result.id !== currentId || (task && result.version > task.version) ? 'newVersion' : 'saved';
        if (!sameIds(result.elementIds, draft.elementIds))
          result = await setTaskElements(result.id, draft.elementIds);
      }
      const next = { ...draftOf(result), html: draft.html, solutionHtml: draft.solutionHtml };
      queryClient.setQueryData(taskEditorKeys.task(result.id), result);
      void queryClient.invalidateQueries({ queryKey: taskEditorKeys.versions(result.id) });
      setLoadedFor(result.id);
      setCurrentId(result.id);
      setTask(result);
      setDraft(next);
      setSaved(JSON.stringify(next));
      setFiles(result.files.map((f) => ({ ...f, size: 0 })));
      setAttempted(false);
      setOutcome({ kind, task: result });
      if (onSaved) {
        recentOutcomes.set(result.id, { outcome: { kind, task: result }, at: Date.now() });
        onSaved(result);
      }
      return true;
    } catch (error) {
      if (error instanceof ApiError && error.fieldErrors.length)
        setServerList(serverProblems(error.fieldErrors, draft, t));
      setFormError(describeApiError(error, t));
      return false;
    } finally {
      savingRef.current = false;
      setSaving(false);
    }
  }, [currentId, draft, onSaved, queryClient, subjectId, t, task]);

  const addFiles = useCallback((added: FileInfo[]) => {
    setFiles((current) => [...current, ...added.filter((f) => !current.some((c) => c.id === f.id))]);
  }, []);

  return {
    taskId: currentId,
    task,
    query,
    draft,
    update,
    changeType,
    problems,
    dirty,
    save,
    saving,
    formError,
    outcome,
    files,
    addFiles,
  };
}
