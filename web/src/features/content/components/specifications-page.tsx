/** `/admin/content/specifications`: every specification (кодификатор); create, edit, delete. */
import { specificationBodySchema, type Specification } from '@attesta/contract';
import { Anchor, Button, Group, Select, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { RowsTable, type Column } from '../../../components/data-table/data-table';
import { ConfirmDelete } from '../../../components/ui/confirm-delete';
import { PageTitle } from '../../../components/ui/page-title';
import { contentKeys } from '../api/shared';
import {
  deleteSpecification,
  saveSpecification,
  specificationsQuery,
  type SpecificationSummary,
} from '../api/specifications';
import { subjectsQuery } from '../api/subjects';
import { orNull, useEditForm } from '../../../lib/use-edit-form';
import { useLabels } from '../hooks/use-labels';
import { useContentT } from '../locales';
import { CONTENT_BASE } from './content-layout';
import { FormModal } from '../../../components/ui/form-modal';
import { SubjectSelect } from './pickers';

type Summary = SpecificationSummary;

/** Create (no specification) or edit one; the created one opens. */
export function SpecificationFormModal({
  specification,
  onClose,
}: {
  specification: Summary | null;
  onClose: (saved: Specification | null) => void;
}) {
  const t = useContentT();
  const labels = useLabels();
  const queryClient = useQueryClient();
  const form = useEditForm(() => ({
    name: specification?.name ?? '',
    subjectId: specification?.subjectId ?? (null as number | null),
    parallel: specification?.parallel ?? (null as number | null),
    description: specification?.description ?? '',
  }));
  const onSubmit = () =>
    form.submit(
      specificationBodySchema.safeParse({
        name: form.values.name,
        subjectId: form.values.subjectId,
        parallel: form.values.parallel,
        description: orNull(form.values.description),
      }),
      async (body) => {
        const saved = await saveSpecification(body, specification?.id);
        await queryClient.invalidateQueries({ queryKey: contentKeys.specifications });
        onClose(saved);
      },
    );
  return (
    <FormModal
      title={specification ? t('specs.editTitle', { name: specification.name }) : t('specs.createTitle')}
      testId="spec-form"
      form={form}
      onSubmit={onSubmit}
      onClose={() => onClose(null)}
    >
      <TextInput label={t('common.name')} withAsterisk {...form.text('name')} data-testid="spec-name" />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <SubjectSelect
          label={t('common.subject')}
          placeholder={t('common.anySubject')}
          clearable
          value={form.values.subjectId}
          onChange={(id) => form.set('subjectId', id)}
          {...form.errorOf('subjectId')}
        />
        <Select
          label={t('specs.parallel')}
          placeholder={t('specs.anyParallel')}
          clearable
          data={labels.parallelOptions}
          value={form.values.parallel === null ? null : String(form.values.parallel)}
          onChange={(v) => form.set('parallel', v === null ? null : Number(v))}
          {...form.errorOf('parallel')}
        />
      </SimpleGrid>
      <Textarea label={t('specs.description')} rows={3} resize="vertical" {...form.text('description')} />
    </FormModal>
  );
}

export function SpecificationsPage() {
  const t = useContentT();
  const labels = useLabels();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [subjectId, setSubjectId] = useState<number | null>(null);
  const specs = useQuery(specificationsQuery(subjectId ?? undefined));
  const subjects = useQuery(subjectsQuery());
  const [dialog, setDialog] = useState<
    { kind: 'edit'; spec: Summary | null } | { kind: 'delete'; spec: Summary } | null
  >(null);
  const subjectName = (id: number | null) =>
    id === null ? t('common.none') : (subjects.data?.find((s) => s.id === id)?.name ?? `#${id}`);

  const columns: Column<Summary>[] = [
    { key: 'id', header: t('common.id'), render: (s) => s.id, csv: (s) => s.id },
    {
      key: 'name',
      header: t('common.name'),
      render: (s) => (
        <Anchor
          component={Link}
          to={`${CONTENT_BASE}/specifications/${s.id}`}
          data-testid={`spec-link-${s.id}`}
        >
          {s.name}
        </Anchor>
      ),
      csv: (s) => s.name,
    },
    {
      key: 'subject',
      header: t('common.subject'),
      render: (s) => subjectName(s.subjectId),
      csv: (s) => subjectName(s.subjectId),
    },
    {
      key: 'parallel',
      header: t('specs.parallel'),
      render: (s) => (s.parallel === null ? t('common.none') : labels.parallel(s.parallel)),
      csv: (s) => s.parallel,
    },
    {
      key: 'count',
      header: t('specs.elementCount'),
      render: (s) => s.elementCount,
      csv: (s) => s.elementCount,
    },
    {
      key: 'actions',
      header: t('common.actions'),
      render: (s) => (
        <Group gap={4} wrap="nowrap">
          <Button
            size="compact-xs"
            variant="light"
            onClick={() => setDialog({ kind: 'edit', spec: s })}
            data-testid={`spec-edit-${s.id}`}
          >
            {t('common.edit')}
          </Button>
          <Button
            size="compact-xs"
            variant="light"
            color="red"
            onClick={() => setDialog({ kind: 'delete', spec: s })}
            data-testid={`spec-delete-${s.id}`}
          >
            {t('common.delete')}
          </Button>
        </Group>
      ),
    },
  ];

  return (
    <Stack gap="md">
      <PageTitle>{t('specs.title')}</PageTitle>
      <RowsTable
        caption={t('specs.caption')}
        rows={specs.data}
        error={specs.error}
        onRetry={() => void specs.refetch()}
        columns={columns}
        rowKey={(s) => s.id}
        testId="specs-table"
        exportName="specifications"
        filters={
          <SubjectSelect
            label={t('common.subject')}
            placeholder={t('common.anySubject')}
            clearable
            value={subjectId}
            onChange={setSubjectId}
            w={240}
          />
        }
        actions={
          <Button onClick={() => setDialog({ kind: 'edit', spec: null })} data-testid="spec-create">
            {t('specs.create')}
          </Button>
        }
      />
      {dialog?.kind === 'edit' && (
        <SpecificationFormModal
          specification={dialog.spec}
          onClose={(saved) => {
            const wasNew = dialog.spec === null;
            setDialog(null);
            if (saved && wasNew) navigate(`${CONTENT_BASE}/specifications/${saved.id}`);
          }}
        />
      )}
      {dialog?.kind === 'delete' && (
        <ConfirmDelete
          title={t('common.confirmDelete')}
          question={t('specs.deleteQuestion', { name: dialog.spec.name })}
          confirmLabel={t('common.delete')}
          cancelLabel={t('common.cancel')}
          conflicts={{ conflict: t('specs.inUse') }}
          onConfirm={async () => {
            await deleteSpecification(dialog.spec.id);
            await queryClient.invalidateQueries({ queryKey: contentKeys.specifications });
          }}
          onClose={() => setDialog(null)}
        />
      )}
    </Stack>
  );
}
