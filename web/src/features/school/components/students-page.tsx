import type { StaffStudent, StaffStudentSortField } from '@attesta/contract';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '../../../components/lite/notify';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { describeApiError } from '../../../lib/form-errors';
import { DataTable, type Column } from '../../../components/data-table/data-table';
import { useBundleT } from '../../../components/data-table/use-bundle-t';
import { LoadingButton } from '../../../components/ui/loading-button';
import { PageTitle } from '../../../components/ui/page-title';
import { fullName, plainDate } from '../../../components/staff-format';
import { staffBundle } from '../../../components/staff-locales';
import { allClassesQuery } from '../api/classes';
import { schoolKeys, type StaffRole } from '../api/shared';
import { deleteStudent, listStudents } from '../api/students';
import { StudentForm } from './student-form';
import { ChoiceFilter, GradeFilter, SearchFilter } from './list-filters';
import { useAccommodationColumns } from '../../../components/accommodations/accommodation-columns';
import { useAccommodationsT } from '../../../components/accommodations/locales';
import { StudentAccommodationsModal } from '../../../components/accommodations/student-accommodations-modal';
import { BulkAccommodationsModal } from '../../../components/accommodations/bulk-accommodations-modal';
import { coordinatorAccommodationsCalls, coordinatorBulkAccommodations } from './student-accommodations';

/** Students of the school (coordinator: with create, edit, delete) or of the assigned rooms. */
export function StudentsPage({ role }: { role: StaffRole }) {
  const { t } = useBundleT(staffBundle);
  const { t: tApp } = useTranslation();
  const queryClient = useQueryClient();
  const classes = useQuery(allClassesQuery(role));
  const [search, setSearch] = useState('');
  const [classId, setClassId] = useState('');
  const [parallel, setParallel] = useState('');
  const [editing, setEditing] = useState<StaffStudent | 'new' | null>(null);
  const [deleting, setDeleting] = useState<StaffStudent | null>(null);
  // Accommodations (docs/accommodations.md) are the coordinator's: one student, or the selected.
  const { t: tc } = useAccommodationsT();
  const accommodating = role === 'coordinator';
  const { selected, clearSelected, selectColumn, markColumn } = useAccommodationColumns<StaffStudent>(
    fullName,
    'student',
  );
  const [accommodationsOf, setAccommodationsOf] = useState<StaffStudent | null>(null);
  const [bulkIds, setBulkIds] = useState<number[] | null>(null);
  const classList = classes.data?.items ?? [];

  const refresh = () => queryClient.invalidateQueries({ queryKey: schoolKeys.all(role) });

  const remove = async () => {
    if (!deleting) return;
    try {
      await deleteStudent(deleting.id);
      notifications.show({ color: 'green', message: t('staff.students.deleted') });
      setDeleting(null);
      await refresh();
    } catch (error) {
      notifications.show({ color: 'red', message: describeApiError(error, tApp) });
    }
  };

  const columns: Column<StaffStudent, StaffStudentSortField>[] = [
    {
      key: 'surname',
      header: t('staff.students.fullName'),
      sortField: 'surname',
      render: (s) => fullName(s),
      csv: (s) => fullName(s),
    },
    {
      key: 'birthDate',
      header: t('staff.students.birthDate'),
      sortField: 'birthDate',
      render: (s) => plainDate(s.birthDate),
      csv: (s) => plainDate(s.birthDate),
    },
    {
      key: 'className',
      header: t('staff.students.class'),
      sortField: 'className',
      render: (s) => s.className ?? '—',
      csv: (s) => s.className,
    },
    {
      key: 'building',
      header: t('staff.students.building'),
      render: (s) => s.buildingName ?? '—',
      csv: (s) => s.buildingName,
    },
  ];
  if (accommodating) {
    columns.unshift(selectColumn);
    columns.push(markColumn);
  }
  {
    columns.push({
      key: 'actions',
      header: t('staff.common.actions'),
      render: (s) => (
        <Group gap="xs" wrap="nowrap">
          <Button
            size="xs"
            variant="light"
            onClick={() => setEditing(s)}
            data-testid={`student-edit-${s.id}`}
          >
            {t('staff.common.edit')}
          </Button>
          {accommodating && (
            <Button
              size="xs"
              variant="light"
              onClick={() => setAccommodationsOf(s)}
              data-testid={`student-accommodations-${s.id}`}
            >
              {tc('accommodations.open')}
            </Button>
          )}
          {role === 'coordinator' && (
            <Button
              size="xs"
              variant="subtle"
              color="red"
              onClick={() => setDeleting(s)}
              data-testid={`student-delete-${s.id}`}
            >
              {t('staff.common.delete')}
            </Button>
          )}
        </Group>
      ),
    });
  }

  return (
    <Stack gap="lg">
      <PageTitle data-testid={`${role}-students-title`}>{t('staff.students.title')}</PageTitle>
      <DataTable
        testId="students"
        queryKey={schoolKeys.students(role)}
        fetchPage={listStudents(role)}
        columns={columns}
        rowKey={(s) => s.id}
        initialSort={{ field: 'surname', dir: 'asc' }}
        filter={{
          search,
          classId: classId ? Number(classId) : undefined,
          parallel: parallel ? Number(parallel) : undefined,
        }}
        exportName="students"
        filters={
          <>
            <SearchFilter value={search} onChange={setSearch} testId="students-search" />
            <ChoiceFilter
              label={t('staff.students.class')}
              value={classId}
              onChange={setClassId}
              options={classList.map((c) => ({ value: String(c.id), label: c.name }))}
            />
            <GradeFilter label={t('staff.students.parallel')} value={parallel} onChange={setParallel} />
          </>
        }
        actions={
          <Group gap="xs">
            {accommodating && (
              <Button
                variant="default"
                disabled={selected.size === 0}
                onClick={() => setBulkIds([...selected])}
                data-testid="students-accommodations-bulk"
              >
                {tc('accommodations.bulkOpen', { count: selected.size })}
              </Button>
            )}
            <Button onClick={() => setEditing('new')} data-testid="student-add">
              {t('staff.students.add')}
            </Button>
          </Group>
        }
      />
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? t('staff.students.newTitle') : t('staff.students.editTitle')}
      >
        {editing !== null && (
          <StudentForm
            role={role}
            student={editing === 'new' ? null : editing}
            classes={classList}
            onCancel={() => setEditing(null)}
            onSaved={() => {
              notifications.show({ color: 'green', message: t('staff.students.saved') });
              setEditing(null);
              void refresh();
            }}
          />
        )}
      </Modal>
      {accommodating && (
        <>
          <StudentAccommodationsModal
            student={accommodationsOf}
            calls={coordinatorAccommodationsCalls}
            onClose={() => setAccommodationsOf(null)}
            onSaved={() => {
              notifications.show({ color: 'green', message: tc('accommodations.saved') });
              setAccommodationsOf(null);
              void refresh();
            }}
          />
          <BulkAccommodationsModal
            ids={bulkIds}
            save={coordinatorBulkAccommodations}
            onClose={() => setBulkIds(null)}
            onSaved={(count) => {
              notifications.show({
                color: 'green',
                message: tc('accommodations.bulkSaved', { count }),
              });
              setBulkIds(null);
              clearSelected();
              void refresh();
            }}
          />
        </>
      )}
      <Modal opened={deleting !== null} onClose={() => setDeleting(null)} title={t('staff.common.delete')}>
        <Stack>
          <Text>{t('staff.students.deleteConfirm', { name: deleting ? fullName(deleting) : '' })}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDeleting(null)}>
              {t('staff.common.cancel')}
            </Button>
            <LoadingButton color="red" onClick={remove} data-testid="student-delete-confirm">
              {t('staff.common.delete')}
            </LoadingButton>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
