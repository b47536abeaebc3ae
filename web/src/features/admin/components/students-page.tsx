import type { AdminStudent, AdminStudentSortField } from '@attesta/contract';
import { Anchor, Button, Group, Select, Stack, TextInput } from '@mantine/core';
import { useAccommodationColumns } from '../../../components/accommodations/accommodation-columns';
import { BulkAccommodationsModal } from '../../../components/accommodations/bulk-accommodations-modal';
import { useAccommodationsT } from '../../../components/accommodations/locales';
import { StudentAccommodationsModal } from '../../../components/accommodations/student-accommodations-modal';
import { notifications } from '../../../components/lite/notify';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { DataTable, type Column } from '../../../components/data-table/data-table';
import { useFilter } from '../../../components/data-table/use-filter';
import { ConfirmDelete } from '../../../components/ui/confirm-delete';
import { PageTitle } from '../../../components/ui/page-title';
import { plainDate } from '../../../components/staff-format';
import { adminAccommodationsCalls, adminBulkStudentAccommodations } from '../api/accommodations-api';
import { deleteStudent, listStudents, orgKeys } from '../api/admin-org-api';
import { useAdminT } from '../i18n';
import { EditDeleteButtons } from './edit-delete-buttons';
import { ClassSelect, RemoteSelect, useParallelOptions } from './org-selects';
import { StudentFormModal } from './student-form-modal';

interface StudentFilter {
  search?: string;
  schoolId?: number;
  classId?: number;
  parallel?: number;
}

type Editing =
  | { kind: 'form'; student: AdminStudent | null }
  | { kind: 'delete'; student: AdminStudent }
  | { kind: 'accommodations'; student: AdminStudent }
  | null;

const idParam = (value: string | null) => (value && /^\d+$/.test(value) ? Number(value) : undefined);
export const fullName = (s: { surname: string; name: string; patronymic: string | null }) =>
  [s.surname, s.name, s.patronymic].filter(Boolean).join(' ');

/** `/admin/students` (`?schoolId=&classId=`): students of every school; create, edit, move, delete. */
export function StudentsPage() {
  const t = useAdminT();
  const { t: ta } = useAccommodationsT();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const [filter, setFilter] = useFilter<StudentFilter>({
    schoolId: idParam(params.get('schoolId')),
    classId: idParam(params.get('classId')),
  });
  const parallels = useParallelOptions();
  const [editing, setEditing] = useState<Editing>(null);
  // The same accommodations for the selected students, as on the coordinator's page.
  const { selected, clearSelected, selectColumn, markColumn } = useAccommodationColumns<AdminStudent>(
    fullName,
    'student',
  );
  const [bulkIds, setBulkIds] = useState<number[] | null>(null);
  const remove = useMutation({
    mutationFn: deleteStudent,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: orgKeys.students }),
  });

  const columns: Column<AdminStudent, AdminStudentSortField>[] = [
    selectColumn,
    { key: 'name', header: t('students.fullName'), render: fullName, csv: fullName, sortField: 'surname' },
    {
      key: 'birthDate',
      header: t('students.birthDate'),
      render: (s) => plainDate(s.birthDate),
      csv: (s) => plainDate(s.birthDate),
      sortField: 'birthDate',
    },
    {
      key: 'school',
      header: t('students.school'),
      render: (s) => (
        <Anchor component={Link} to={`/admin/schools/${s.schoolId}`} size="sm">
          {s.schoolName}
        </Anchor>
      ),
      csv: (s) => s.schoolName,
      sortField: 'schoolName',
    },
    {
      key: 'class',
      header: t('students.className'),
      render: (s) => s.className ?? '—',
      csv: (s) => s.className,
      sortField: 'className',
    },
    {
      key: 'registrations',
      header: t('students.registrations'),
      render: (s) => s.participantTestCount,
      csv: (s) => s.participantTestCount,
    },
    markColumn,
    {
      key: 'actions',
      header: t('common.actions'),
      render: (s) => (
        <Group gap={4} wrap="nowrap">
          <EditDeleteButtons
            what="student"
            id={s.id}
            onEdit={() => setEditing({ kind: 'form', student: s })}
            onDelete={() => setEditing({ kind: 'delete', student: s })}
          />
          <Button
            size="compact-xs"
            variant="light"
            onClick={() => setEditing({ kind: 'accommodations', student: s })}
            data-testid={`student-accommodations-${s.id}`}
          >
            {ta('accommodations.open')}
          </Button>
        </Group>
      ),
    },
  ];

  const schoolId = filter.schoolId ?? null;
  return (
    <Stack gap="md">
      <PageTitle data-testid="admin-students-title">{t('students.title')}</PageTitle>
      <Group align="flex-end" gap="sm" wrap="wrap" role="search">
        <TextInput
          label={t('students.search')}
          placeholder={t('students.searchPlaceholder')}
          value={filter.search ?? ''}
          onChange={(e) => setFilter({ search: e.currentTarget.value })}
          w={220}
        />
        <RemoteSelect
          kind="school"
          label={t('students.school')}
          placeholder={t('common.any')}
          value={schoolId}
          onChange={(id) => setFilter({ schoolId: id ?? undefined, classId: undefined })}
          w={280}
          data-testid="students-school-filter"
        />
        <ClassSelect
          label={t('students.className')}
          clearable
          placeholder={t('common.any')}
          schoolId={schoolId}
          value={filter.classId ?? null}
          onChange={(id) => setFilter({ classId: id ?? undefined })}
          w={160}
        />
        <Select
          label={t('students.parallel')}
          clearable
          placeholder={t('common.any')}
          data={parallels}
          value={filter.parallel === undefined ? null : String(filter.parallel)}
          onChange={(v) => setFilter({ parallel: v === null ? undefined : Number(v) })}
          w={150}
        />
        <Button
          variant="default"
          disabled={selected.size === 0}
          onClick={() => setBulkIds([...selected])}
          data-testid="students-accommodations-bulk"
        >
          {ta('accommodations.bulkOpen', { count: selected.size })}
        </Button>
        <Button onClick={() => setEditing({ kind: 'form', student: null })} data-testid="student-create">
          {t('students.create')}
        </Button>
      </Group>
      <DataTable
        caption={t('students.caption')}
        queryKey={orgKeys.students}
        fetchPage={listStudents}
        filter={filter}
        initialSort={{ field: 'surname', dir: 'asc' }}
        pageSize={20}
        columns={columns}
        rowKey={(s) => s.id}
        exportName="students"
        testId="students-table"
      />
      {editing?.kind === 'form' && (
        <StudentFormModal
          student={editing.student}
          initialSchool={schoolId}
          onClose={() => setEditing(null)}
        />
      )}
      <StudentAccommodationsModal
        student={editing?.kind === 'accommodations' ? editing.student : null}
        calls={adminAccommodationsCalls}
        onClose={() => setEditing(null)}
        onSaved={() => {
          notifications.show({ color: 'green', message: ta('accommodations.saved') });
          setEditing(null);
          void queryClient.invalidateQueries({ queryKey: orgKeys.students });
        }}
      />
      <BulkAccommodationsModal
        ids={bulkIds}
        save={adminBulkStudentAccommodations}
        onClose={() => setBulkIds(null)}
        onSaved={(count) => {
          notifications.show({ color: 'green', message: ta('accommodations.bulkSaved', { count }) });
          setBulkIds(null);
          clearSelected();
          void queryClient.invalidateQueries({ queryKey: orgKeys.students });
        }}
      />
      {editing?.kind === 'delete' && (
        <ConfirmDelete
          title={t('common.confirmTitle')}
          question={t('students.deleteQuestion', { name: fullName(editing.student) })}
          confirmLabel={t('common.delete')}
          cancelLabel={t('common.cancel')}
          conflicts={{ student_has_participant_tests: t('students.hasParticipantTests') }}
          onConfirm={() => remove.mutateAsync(editing.student.id)}
          onClose={() => setEditing(null)}
        />
      )}
    </Stack>
  );
}
