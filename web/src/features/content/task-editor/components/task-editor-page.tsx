/**
 * The task editor: the text (rich text with formulas, pictures and files), the answer type and its
 * forms (content, key, scoring), the rubric of expert tasks, the max score and the classifiers;
 * checked by the contract's task model before saving, saved as a new task or a new version, and
 * previewed as the participant sees it, with a trial score.
 */
import { isManualAnswerType, type AnswerType, type AuthoringTask, type FileInfo } from '@attesta/contract';
import {
  Alert,
  Badge,
  Button,
  Divider,
  Group,
  List,
  Loader,
  Modal,
  Paper,
  Select,
  Stack,
  Tabs,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useCallback, useRef, useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { PageTitle } from '../../../../components/ui/page-title';
import { describeApiError } from '../../../../lib/form-errors';
import { uploadTaskFiles } from '../api/files';
import { useTaskEditor } from '../hooks/use-task-editor';
import { EDITABLE_TYPES, isEditableType, isTaskType } from '../model/draft';
import { fieldLabel } from '../model/fields';
import { useTaskEditorT } from '../locales';
import { AnswerForm } from './answer-form';
import { ClassifierPicker } from './classifier-picker';
import { ContainerPicker } from './container-picker';
import { NumField } from './forms/fields';
import { RichTextField, type RichTextHandle } from './rich-text-field';
import { TaskFiles } from './task-files';
import { TaskPreview } from './task-preview';
import { VersionsList } from './versions-list';

export interface TaskEditorPageProps {
  /** The task to edit; without it (and without a `:taskId` route param) a new task is made. */
  taskId?: number;
  /** The subject whose pool a new task joins (or the `subjectId` search param). */
  subjectId?: number;
  /** After each save: the task now current (a new id when a new version was made). */
  onSaved?: (task: AuthoringTask) => void;
}

const positive = (v: string | null | undefined): number | undefined => {
  const n = v ? Number(v) : NaN;
  return Number.isInteger(n) && n > 0 ? n : undefined;
};

export function TaskEditorPage(props: TaskEditorPageProps) {
  const params = useParams();
  const [search] = useSearchParams();
  const taskId = props.taskId ?? positive(params.taskId);
  const subjectId = props.subjectId ?? positive(params.subjectId) ?? positive(search.get('subjectId'));
  // A different task is a different editor: its state starts over.
  return <TaskEditor key={taskId ?? 'new'} taskId={taskId} subjectId={subjectId} onSaved={props.onSaved} />;
}

function TaskEditor({ taskId, subjectId, onSaved }: TaskEditorPageProps) {
  const { t } = useTaskEditorT();
  const editor = useTaskEditor({ taskId, subjectId, onSaved });
  const { draft, update, problems, task } = editor;
  const htmlHandle = useRef<RichTextHandle | null>(null);
  const summaryRef = useRef<HTMLDivElement>(null);
  const [tab, setTab] = useState<string | null>('edit');
  const [pendingType, setPendingType] = useState<AnswerType | null>(null);
  const onHtmlReady = useCallback((handle: RichTextHandle) => {
    htmlHandle.current = handle;
  }, []);

  const currentId = editor.taskId;
  const { addFiles } = editor;
  const uploadToTask = useCallback(
    async (files: File[]): Promise<FileInfo[]> => {
      const stored = await uploadTaskFiles(currentId!, files);
      addFiles(stored);
      return stored;
    },
    [addFiles, currentId],
  );
  const upload = currentId !== undefined ? uploadToTask : undefined;
  const setHtml = useCallback((html: string) => update({ html }), [update]);
  const setSolution = useCallback((solutionHtml: string) => update({ solutionHtml }), [update]);
  const setElements = useCallback((elementIds: number[]) => update({ elementIds }), [update]);

  if (editor.query.isLoading)
    return (
      <Group p="lg">
        <Loader size="sm" />
        <Text>{t('taskEditor.loading')}</Text>
      </Group>
    );
  if (editor.query.error)
    return (
      <Stack p="lg">
        <PageTitle>{t('taskEditor.titleEdit')}</PageTitle>
        <Alert color="red" role="alert">
          {describeApiError(editor.query.error, t)}
        </Alert>
      </Stack>
    );
  if (taskId === undefined && subjectId === undefined)
    return (
      <Stack p="lg">
        <PageTitle>{t('taskEditor.titleNew')}</PageTitle>
        <Alert color="orange">{t('taskEditor.noSubject')}</Alert>
      </Stack>
    );

  const storedType = task?.answerType ?? draft.answerType;
  const editable = isTaskType(storedType);
  const manual = isManualAnswerType(draft.answerType);
  const activeTab = !editable && tab === 'edit' ? 'preview' : tab;

  const save = async () => {
    const ok = await editor.save();
    if (!ok) requestAnimationFrame(() => summaryRef.current?.focus());
  };

  const chooseType = (type: AnswerType) => {
    if (type === draft.answerType) return;
    setPendingType(type);
  };

  const title = task
    ? task.title
      ? t('taskEditor.titleNamed', { title: task.title })
      : t('taskEditor.titleEdit')
    : t('taskEditor.titleNew');

  return (
    <Stack gap="md" p={{ base: 'xs', sm: 'md' }} data-testid="task-editor">
      <Group justify="space-between" align="flex-start">
        <Group gap="sm">
          <PageTitle documentTitle={title}>{title}</PageTitle>
          {task && (
            <Badge variant="light" size="lg">
              {t('taskEditor.versions.number', { n: task.version })}
            </Badge>
          )}
          {task?.usedByWorks && (
            <Badge variant="light" color="orange" size="lg">
              {t('taskEditor.usedByWorks')}
            </Badge>
          )}
        </Group>
        <Group gap="sm">
          {editor.dirty && editable && (
            <Text size="sm" c="dimmed">
              {t('taskEditor.unsaved')}
            </Text>
          )}
          <Button
            onClick={() => void save()}
            loading={editor.saving}
            disabled={!editable}
            data-testid="save-task"
          >
            {task ? t('taskEditor.save') : t('taskEditor.create')}
          </Button>
        </Group>
      </Group>

      {task?.usedByWorks && editable && (
        <Alert color="orange" variant="light">
          {t('taskEditor.versionWarning')}
        </Alert>
      )}
      {editor.outcome && (
        <Alert color="green" variant="light" role="status" data-testid="save-outcome">
          {editor.outcome.kind === 'created'
            ? t('taskEditor.created')
            : editor.outcome.kind === 'newVersion'
              ? t('taskEditor.newVersion', { n: editor.outcome.task.version })
              : t('taskEditor.saved')}
        </Alert>
      )}
      {editor.formError && (
        <Alert color="red" role="alert" data-testid="save-error">
          {editor.formError}
        </Alert>
      )}
      {problems.list.length > 0 && (
        <Alert
          color="red"
          variant="light"
          title={t('taskEditor.problemsTitle')}
          ref={summaryRef}
          tabIndex={-1}
          data-testid="problems"
        >
          <List size="sm">
            {problems.list.map((p) => (
              <List.Item key={`${p.path}:${p.message}`}>
                {fieldLabel(p.path, draft, t)}: {p.message}
              </List.Item>
            ))}
          </List>
        </Alert>
      )}
      {!editable && (
        <Alert color="gray" variant="light" data-testid="not-editable">
          {t('taskEditor.unknownType')}
        </Alert>
      )}

      <Tabs value={activeTab} onChange={setTab} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="edit" disabled={!editable}>
            {t('taskEditor.tabs.edit')}
          </Tabs.Tab>
          <Tabs.Tab value="preview">{t('taskEditor.tabs.preview')}</Tabs.Tab>
          {editor.taskId !== undefined && (
            <Tabs.Tab value="versions">{t('taskEditor.tabs.versions')}</Tabs.Tab>
          )}
        </Tabs.List>

        <Tabs.Panel value="edit" pt="md">
          {editable && (
            <Stack gap="lg">
              <Paper withBorder p="md">
                <Stack gap="sm">
                  <Title order={2} size="h3">
                    {t('taskEditor.sections.main')}
                  </Title>
                  <Group grow align="flex-start">
                    <TextInput
                      label={t('taskEditor.fields.title')}
                      description={t('taskEditor.titleHint')}
                      value={draft.title}
                      maxLength={300}
                      onChange={(e) => update({ title: e.currentTarget.value })}
                      error={problems.at('title')}
                    />
                    <TextInput
                      label={t('taskEditor.fields.category')}
                      description={t('taskEditor.categoryHint')}
                      value={draft.category}
                      maxLength={300}
                      onChange={(e) => update({ category: e.currentTarget.value })}
                      error={problems.at('category')}
                    />
                  </Group>
                  <Group grow align="flex-start">
                    {isEditableType(draft.answerType) ? (
                      <Select
                        label={t('taskEditor.answerType')}
                        description={t(`taskEditor.types.${draft.answerType}.hint`)}
                        value={draft.answerType}
                        allowDeselect={false}
                        onChange={(v) => v && isEditableType(v) && chooseType(v)}
                        data={EDITABLE_TYPES.map((type) => ({
                          value: type,
                          label: t(`taskEditor.types.${type}.name`),
                        }))}
                        data-testid="answer-type"
                      />
                    ) : (
                      <TextInput
                        label={t('taskEditor.answerType')}
                        description={t(`taskEditor.types.${draft.answerType}.hint`)}
                        value={t(`taskEditor.types.${draft.answerType}.name`)}
                        readOnly
                        data-testid="answer-type"
                      />
                    )}
                    <NumField
                      label={t('taskEditor.fields.maxScore')}
                      description={manual ? t('taskEditor.maxScoreManualHint') : t('taskEditor.maxScoreHint')}
                      min={0}
                      max={100}
                      value={draft.maxScore}
                      error={problems.at('maxScore')}
                      onChange={(maxScore) => update({ maxScore })}
                      data-testid="max-score"
                    />
                  </Group>
                  <ContainerPicker
                    value={draft.htmlContainerId}
                    onChange={(htmlContainerId) => update({ htmlContainerId })}
                  />
                </Stack>
              </Paper>

              <Paper withBorder p="md">
                <RichTextField
                  label={t('taskEditor.fields.html')}
                  description={
                    draft.answerType === 'cloze' ? t('taskEditor.htmlClozeHint') : t('taskEditor.htmlHint')
                  }
                  required
                  value={draft.html}
                  onChange={setHtml}
                  error={problems.at('html')}
                  files={editor.files}
                  onUpload={upload}
                  onReady={onHtmlReady}
                  testId="task-html"
                />
              </Paper>

              <Paper withBorder p="md">
                <Stack gap="sm">
                  <Title order={2} size="h3">
                    {t('taskEditor.sections.answer')}
                  </Title>
                  <AnswerForm
                    draft={draft}
                    update={update}
                    problems={problems}
                    insertMark={(id) => htmlHandle.current?.insertText(`{{${id}}}`)}
                  />
                </Stack>
              </Paper>

              <Paper withBorder p="md">
                <RichTextField
                  label={t('taskEditor.fields.solution')}
                  description={t('taskEditor.solutionHint')}
                  value={draft.solutionHtml}
                  onChange={setSolution}
                  error={problems.at('solutionHtml')}
                  files={editor.files}
                  onUpload={upload}
                  minHeight={100}
                  testId="solution-html"
                />
              </Paper>

              <Paper withBorder p="md">
                <Stack gap="sm">
                  <Title order={2} size="h3">
                    {t('taskEditor.sections.files')}
                  </Title>
                  <TaskFiles
                    files={editor.files}
                    onUpload={upload}
                    onInsert={(html) => htmlHandle.current?.insertHtml(html)}
                  />
                </Stack>
              </Paper>

              <Paper withBorder p="md">
                <Stack gap="sm">
                  <Title order={2} size="h3">
                    {t('taskEditor.sections.classifiers')}
                  </Title>
                  <ClassifierPicker
                    subjectId={task?.subjectId ?? subjectId ?? null}
                    value={draft.elementIds}
                    onChange={setElements}
                  />
                </Stack>
              </Paper>

              <Divider />
              <Group justify="flex-end">
                <Button onClick={() => void save()} loading={editor.saving}>
                  {task ? t('taskEditor.save') : t('taskEditor.create')}
                </Button>
              </Group>
            </Stack>
          )}
        </Tabs.Panel>

        <Tabs.Panel value="preview" pt="md">
          <TaskPreview
            draft={draft}
            files={editor.files}
            taskId={editor.taskId}
            dirty={editable && editor.dirty}
          />
        </Tabs.Panel>

        {editor.taskId !== undefined && (
          <Tabs.Panel value="versions" pt="md">
            <VersionsList taskId={editor.taskId} />
          </Tabs.Panel>
        )}
      </Tabs>

      {pendingType && (
        <Modal opened onClose={() => setPendingType(null)} title={t('taskEditor.changeType.title')}>
          <Stack>
            <Text size="sm">
              {t('taskEditor.changeType.question', { type: t(`taskEditor.types.${pendingType}.name`) })}
            </Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setPendingType(null)}>
                {t('taskEditor.cancel')}
              </Button>
              <Button
                onClick={() => {
                  editor.changeType(pendingType);
                  setPendingType(null);
                }}
                data-testid="confirm-type"
              >
                {t('taskEditor.changeType.confirm')}
              </Button>
            </Group>
          </Stack>
        </Modal>
      )}
    </Stack>
  );
}
