/** `/admin/content/subjects`: subjects with their exams, and test groups. */
import {
  authoringSubjectBodySchema,
  authoringSubjectExamBodySchema,
  testGroupBodySchema,
  type AuthoringSubject,
  type AuthoringSubjectExam,
} from '@attesta/contract';
import { Alert, Button, Group, Modal, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { RowsTable, type Column } from '../../../components/data-table/data-table';
import { PageTitle } from '../../../components/ui/page-title';
import { contentKeys } from '../api/shared';
import { saveSubject, saveSubjectExam, subjectExamsQuery, subjectsQuery } from '../api/subjects';
import { createTestGroup, testGroupsQuery } from '../api/test-groups';
import { orNull, useEditForm } from '../../../lib/use-edit-form';
import { useLabels } from '../hooks/use-labels';
import { useContentT } from '../locales';
import { FormModal, PlainForm } from '../../../components/ui/form-modal';

function SubjectFormModal({
  subject,
  onClose,
}: {
  subject: AuthoringSubject | null;
  onClose: (saved: AuthoringSubject | null) => void;
}) {
  const t = useContentT();
  const queryClient = useQueryClient();
  const form = useEditForm(() => ({ name: subject?.name ?? '', code: subject?.code ?? '' }));
  const onSubmit = () =>
    form.submit(
      authoringSubjectBodySchema.safeParse({ name: form.values.name, code: orNull(form.values.code) }),
      async (body) => {
        const saved = await saveSubject(body, subject?.id);
        await queryClient.invalidateQueries({ queryKey: contentKeys.subjects });
        onClose(saved);
      },
      { codeToField: { code_taken: { field: 'code', message: t('subjects.codeTaken') } } },
    );
  return (
    <FormModal
      title={subject ? t('subjects.editTitle', { name: subject.name }) : t('subjects.createTitle')}
      testId="subject-form"
      form={form}
      onSubmit={onSubmit}
      onClose={() => onClose(null)}
    >
      <TextInput label={t('common.name')} withAsterisk {...form.text('name')} data-testid="subject-name" />
      <TextInput
        label={t('common.code')}
        description={t('subjects.codeHint')}
        {...form.text('code')}
        data-testid="subject-code"
      />
    </FormModal>
  );
}

function ExamForm({
  subjectId,
  exam,
  onDone,
}: {
  subjectId: number;
  exam: AuthoringSubjectExam | null;
  onDone: () => void;
}) {
  const t = useContentT();
  const labels = useLabels();
  const queryClient = useQueryClient();
  const form = useEditForm(() => ({ kind: exam?.kind ?? '', name: exam?.name ?? '' }));
  const onSubmit = () =>
    form.submit(
      authoringSubjectExamBodySchema.safeParse({
        kind: form.values.kind,
        name: form.values.name.trim() || (form.values.kind ? labels.examKind(form.values.kind) : ''),
      }),
      async (body) => {
        await saveSubjectExam(subjectId, body, exam?.id);
        await queryClient.invalidateQueries({ queryKey: contentKeys.subjects });
        onDone();
      },
      { codeToField: { conflict: { field: 'kind', message: t('subjects.examExists') } } },
    );
  return (
    <PlainForm attachForm={form.attachForm} onSubmit={onSubmit} testId="exam-form">
      <Stack gap="xs">
        {form.formError && (
          <Alert color="red" role="alert">
            {form.formError}
          </Alert>
        )}
        <Group align="flex-start" wrap="wrap">
          <Select
            label={t('subjects.examKind')}
            withAsterisk
            data={labels.examKindOptions}
            value={form.values.kind || null}
            onChange={(v) => form.set('kind', v ?? '')}
            {...form.errorOf('kind')}
            w={260}
            data-testid="exam-kind"
          />
          <TextInput label={t('subjects.examName')} {...form.text('name')} w={260} data-testid="exam-name" />
        </Group>
        <Group gap="xs">
          <Button type="submit" size="xs" loading={form.isLoading} data-testid="exam-save">
            {exam ? t('common.save') : t('subjects.addExam')}
          </Button>
          {exam && (
            <Button size="xs" variant="default" onClick={onDone}>
              {t('common.cancel')}
            </Button>
          )}
        </Group>
      </Stack>
    </PlainForm>
  );
}

function ExamsModal({ subject, onClose }: { subject: AuthoringSubject; onClose: () => void }) {
  const t = useContentT();
  const labels = useLabels();
  const exams = useQuery(subjectExamsQuery(subject.id));
  const [editing, setEditing] = useState<AuthoringSubjectExam | null>(null);
  const columns: Column<AuthoringSubjectExam>[] = [
    { key: 'kind', header: t('subjects.examKind'), render: (e) => labels.examKind(e.kind) },
    { key: 'name', header: t('subjects.examName'), render: (e) => e.name },
    {
      key: 'actions',
      header: t('common.actions'),
      render: (e) => (
        <Button
          size="compact-xs"
          variant="light"
          onClick={() => setEditing(e)}
          data-testid={`exam-edit-${e.id}`}
        >
          {t('common.edit')}
        </Button>
      ),
    },
  ];
  return (
    <Modal opened onClose={onClose} title={t('subjects.examsTitle', { name: subject.name })} size="lg">
      <Stack>
        <Text size="sm" c="dimmed">
          {t('subjects.examsHint')}
        </Text>
        <RowsTable
          caption={t('subjects.exams')}
          rows={exams.data}
          error={exams.error}
          onRetry={() => void exams.refetch()}
          columns={columns}
          rowKey={(e) => e.id}
          testId="exams-table"
        />
        <Title order={4}>
          {editing ? t('subjects.editExam', { name: editing.name }) : t('subjects.addExam')}
        </Title>
        <ExamForm
          key={editing?.id ?? 'new'}
          subjectId={subject.id}
          exam={editing}
          onDone={() => setEditing(null)}
        />
      </Stack>
    </Modal>
  );
}

function TestGroups() {
  const t = useContentT();
  const queryClient = useQueryClient();
  const groups = useQuery(testGroupsQuery());
  const [notice, setNotice] = useState<string | null>(null);
  const form = useEditForm(() => ({ name: '' }));
  const onSubmit = () =>
    form.submit(testGroupBodySchema.safeParse({ name: form.values.name }), async (body) => {
      const created = await createTestGroup(body.name);
      await queryClient.invalidateQueries({ queryKey: contentKeys.testGroups });
      form.set('name', '');
      setNotice(t('subjects.groupCreated', { name: created.name }));
    });
  return (
    <Stack gap="sm">
      <Title order={2}>{t('subjects.groups')}</Title>
      <Text size="sm" c="dimmed">
        {t('subjects.groupsHint')}
      </Text>
      {notice && (
        <Alert color="green" role="status" withCloseButton onClose={() => setNotice(null)}>
          {notice}
        </Alert>
      )}
      <PlainForm attachForm={form.attachForm} onSubmit={onSubmit}>
        <Group align="flex-end">
          <TextInput
            label={t('subjects.groupName')}
            {...form.text('name')}
            w={320}
            data-testid="group-name"
          />
          <Button type="submit" loading={form.isLoading} data-testid="group-create">
            {t('subjects.newGroup')}
          </Button>
        </Group>
        {form.formError && (
          <Alert color="red" role="alert" mt="xs">
            {form.formError}
          </Alert>
        )}
      </PlainForm>
      <RowsTable
        caption={t('subjects.groups')}
        rows={groups.data}
        error={groups.error}
        onRetry={() => void groups.refetch()}
        columns={[
          { key: 'id', header: t('common.id'), render: (g) => g.id, csv: (g) => g.id },
          { key: 'name', header: t('common.name'), render: (g) => g.name, csv: (g) => g.name },
        ]}
        rowKey={(g) => g.id}
        testId="groups-table"
      />
    </Stack>
  );
}

export function SubjectsPage() {
  const t = useContentT();
  const subjects = useQuery(subjectsQuery());
  const [editing, setEditing] = useState<{ subject: AuthoringSubject | null } | null>(null);
  const [exams, setExams] = useState<AuthoringSubject | null>(null);
  const columns: Column<AuthoringSubject>[] = [
    { key: 'id', header: t('common.id'), render: (s) => s.id, csv: (s) => s.id },
    { key: 'name', header: t('common.name'), render: (s) => s.name, csv: (s) => s.name },
    { key: 'code', header: t('common.code'), render: (s) => s.code ?? t('common.none'), csv: (s) => s.code },
    { key: 'exams', header: t('subjects.examCount'), render: (s) => s.examCount, csv: (s) => s.examCount },
    { key: 'tasks', header: t('subjects.taskCount'), render: (s) => s.taskCount, csv: (s) => s.taskCount },
    {
      key: 'actions',
      header: t('common.actions'),
      render: (s) => (
        <Group gap={4} wrap="nowrap">
          <Button
            size="compact-xs"
            variant="light"
            onClick={() => setEditing({ subject: s })}
            data-testid={`subject-edit-${s.id}`}
          >
            {t('common.edit')}
          </Button>
          <Button
            size="compact-xs"
            variant="light"
            onClick={() => setExams(s)}
            data-testid={`subject-exams-${s.id}`}
          >
            {t('subjects.exams')}
          </Button>
        </Group>
      ),
    },
  ];
  return (
    <Stack gap="lg">
      <PageTitle>{t('subjects.title')}</PageTitle>
      <RowsTable
        caption={t('subjects.caption')}
        rows={subjects.data}
        error={subjects.error}
        onRetry={() => void subjects.refetch()}
        columns={columns}
        rowKey={(s) => s.id}
        exportName="subjects"
        testId="subjects-table"
        actions={
          <Button onClick={() => setEditing({ subject: null })} data-testid="subject-create">
            {t('subjects.create')}
          </Button>
        }
      />
      <TestGroups />
      {editing && <SubjectFormModal subject={editing.subject} onClose={() => setEditing(null)} />}
      {exams && <ExamsModal subject={exams} onClose={() => setExams(null)} />}
    </Stack>
  );
}
