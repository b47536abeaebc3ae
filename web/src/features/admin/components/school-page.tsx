import type { AdminBuilding, AdminClass } from '@attesta/contract';
import { Alert, Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { RowsTable, type Column } from '../../../components/data-table/data-table';
import { ConfirmDelete } from '../../../components/ui/confirm-delete';
import { PageTitle } from '../../../components/ui/page-title';
import { deleteClass, getSchool, listBuildings, listClasses, orgKeys } from '../api/admin-org-api';
import { useAdminT } from '../i18n';
import { EditDeleteButtons } from './edit-delete-buttons';
import { BuildingFormModal, ClassFormModal } from './class-form-modal';
import { describeApiError } from '../../../lib/form-errors';

type Editing =
  | { kind: 'class'; cls: AdminClass | null }
  | { kind: 'building'; building: AdminBuilding | null }
  | { kind: 'delete'; cls: AdminClass }
  | null;

/** `/admin/schools/:id`: a school's classes (add, edit, delete when empty) and buildings. */
export function SchoolPage() {
  const t = useAdminT();
  const schoolId = Number(useParams().id);
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<Editing>(null);
  const school = useQuery({ queryKey: orgKeys.school(schoolId), queryFn: () => getSchool(schoolId) });
  const classes = useQuery({ queryKey: orgKeys.classes(schoolId), queryFn: () => listClasses(schoolId) });
  const buildings = useQuery({
    queryKey: orgKeys.buildings(schoolId),
    queryFn: () => listBuildings(schoolId),
  });
  const remove = useMutation({
    mutationFn: deleteClass,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: orgKeys.school(schoolId) }),
  });

  const classColumns: Column<AdminClass>[] = [
    { key: 'name', header: t('org.className'), render: (c) => c.name, csv: (c) => c.name },
    { key: 'parallel', header: t('org.parallel'), render: (c) => c.parallel, csv: (c) => c.parallel },
    { key: 'letter', header: t('org.letter'), render: (c) => c.letter, csv: (c) => c.letter },
    {
      key: 'building',
      header: t('org.building'),
      render: (c) => c.buildingName ?? '—',
      csv: (c) => c.buildingName,
    },
    {
      key: 'students',
      header: t('org.studentCount'),
      render: (c) => (
        <Anchor component={Link} to={`/admin/students?schoolId=${schoolId}&classId=${c.id}`}>
          {c.studentCount}
        </Anchor>
      ),
      csv: (c) => c.studentCount,
    },
    {
      key: 'actions',
      header: t('common.actions'),
      render: (c) => (
        <EditDeleteButtons
          what="class"
          id={c.id}
          onEdit={() => setEditing({ kind: 'class', cls: c })}
          onDelete={() => setEditing({ kind: 'delete', cls: c })}
        />
      ),
    },
  ];

  const buildingColumns: Column<AdminBuilding>[] = [
    { key: 'name', header: t('org.name'), render: (b) => b.name, csv: (b) => b.name },
    { key: 'address', header: t('org.address'), render: (b) => b.address ?? '—', csv: (b) => b.address },
    { key: 'classes', header: t('org.classCount'), render: (b) => b.classCount, csv: (b) => b.classCount },
    {
      key: 'students',
      header: t('org.studentCount'),
      render: (b) => b.studentCount,
      csv: (b) => b.studentCount,
    },
    {
      key: 'actions',
      header: t('common.actions'),
      render: (b) => (
        <Button
          size="compact-xs"
          variant="light"
          onClick={() => setEditing({ kind: 'building', building: b })}
        >
          {t('common.edit')}
        </Button>
      ),
    },
  ];

  if (school.error) {
    return (
      <Alert color="red" role="alert">
        {describeApiError(school.error, t)}
      </Alert>
    );
  }

  return (
    <Stack gap="md">
      <PageTitle data-testid="admin-school-title">{school.data?.name ?? '…'}</PageTitle>
      {school.data && (
        <Group gap="lg">
          <Text size="sm">
            {t('org.ooShort')}: {school.data.ooName}
          </Text>
          {school.data.code && (
            <Text size="sm">
              {t('org.code')}: {school.data.code}
            </Text>
          )}
          <Anchor component={Link} to={`/admin/students?schoolId=${schoolId}`} size="sm">
            {t('org.schoolStudents')}
          </Anchor>
          <Anchor component={Link} to="/admin/schools" size="sm">
            {t('org.schoolsTitle')}
          </Anchor>
        </Group>
      )}
      <Group justify="space-between">
        <Title order={2} size="h4">
          {t('org.classes')}
        </Title>
        <Button onClick={() => setEditing({ kind: 'class', cls: null })} data-testid="class-create">
          {t('org.newClass')}
        </Button>
      </Group>
      <RowsTable
        caption={t('org.classes')}
        columns={classColumns}
        rows={classes.data}
        rowKey={(c) => c.id}
        error={classes.error}
        onRetry={() => void classes.refetch()}
        exportName={`classes-${schoolId}`}
        testId="classes-table"
      />
      <Group justify="space-between">
        <Title order={2} size="h4">
          {t('org.buildings')}
        </Title>
        <Button
          variant="light"
          onClick={() => setEditing({ kind: 'building', building: null })}
          data-testid="building-create"
        >
          {t('org.newBuilding')}
        </Button>
      </Group>
      <RowsTable
        caption={t('org.buildings')}
        columns={buildingColumns}
        rows={buildings.data}
        rowKey={(b) => b.id}
        error={buildings.error}
        onRetry={() => void buildings.refetch()}
        exportName={`buildings-${schoolId}`}
        testId="buildings-table"
      />
      {editing?.kind === 'class' && (
        <ClassFormModal
          schoolId={schoolId}
          cls={editing.cls}
          buildings={buildings.data ?? []}
          onClose={() => setEditing(null)}
        />
      )}
      {editing?.kind === 'building' && (
        <BuildingFormModal schoolId={schoolId} building={editing.building} onClose={() => setEditing(null)} />
      )}
      {editing?.kind === 'delete' && (
        <ConfirmDelete
          title={t('common.confirmTitle')}
          question={t('org.deleteClass', { name: editing.cls.name })}
          confirmLabel={t('common.delete')}
          cancelLabel={t('common.cancel')}
          conflicts={{ class_has_students: t('org.classHasStudents'), class_in_use: t('org.classInUse') }}
          onConfirm={() => remove.mutateAsync(editing.cls.id)}
          onClose={() => setEditing(null)}
        />
      )}
    </Stack>
  );
}
