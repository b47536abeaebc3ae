import type { AdminSchool, AdminSchoolSortField } from '@attesta/contract';
import { Alert, Anchor, Button, Group, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { DataTable, type Column } from '../../../components/data-table/data-table';
import { useFilter } from '../../../components/data-table/use-filter';
import { PageTitle } from '../../../components/ui/page-title';
import { listSchools, orgKeys } from '../api/admin-org-api';
import { useAdminT } from '../i18n';
import { RemoteSelect } from './org-selects';
import { OoFormModal, SchoolFormModal } from './school-form-modal';

interface SchoolFilter {
  search?: string;
  ooId?: number;
}

type Editing = { kind: 'school'; school: AdminSchool | null } | { kind: 'oo' } | null;

/** `/admin/schools`: every school with its ОО and counts; create and edit schools, add an ОО. */
export function SchoolsPage() {
  const t = useAdminT();
  const [filter, setFilter] = useFilter<SchoolFilter>({});
  const [editing, setEditing] = useState<Editing>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const count = (
    key: 'buildingCount' | 'classCount' | 'studentCount',
    header: string,
    sort?: AdminSchoolSortField,
  ) =>
    ({ key, header, render: (s) => s[key], csv: (s) => s[key], sortField: sort }) satisfies Column<
      AdminSchool,
      AdminSchoolSortField
    >;

  const columns: Column<AdminSchool, AdminSchoolSortField>[] = [
    {
      key: 'name',
      header: t('org.name'),
      render: (s) => (
        <Anchor component={Link} to={`/admin/schools/${s.id}`}>
          {s.name}
        </Anchor>
      ),
      csv: (s) => s.name,
      sortField: 'name',
    },
    {
      key: 'shortName',
      header: t('org.shortName'),
      render: (s) => s.shortName ?? '—',
      csv: (s) => s.shortName,
    },
    {
      key: 'code',
      header: t('org.code'),
      render: (s) => s.code ?? '—',
      csv: (s) => s.code,
      sortField: 'code',
    },
    {
      key: 'oo',
      header: t('org.ooShort'),
      render: (s) => s.ooName,
      csv: (s) => s.ooName,
      sortField: 'ooName',
    },
    {
      key: 'area',
      header: t('org.area'),
      render: (s) => s.areaName ?? '—',
      csv: (s) => s.areaName ?? null,
    },
    count('buildingCount', t('org.buildingCount')),
    count('classCount', t('org.classCount'), 'classCount'),
    count('studentCount', t('org.studentCount'), 'studentCount'),
    {
      key: 'actions',
      header: t('common.actions'),
      render: (s) => (
        <Group gap={4} wrap="nowrap">
          <Button
            size="compact-xs"
            variant="light"
            onClick={() => setEditing({ kind: 'school', school: s })}
            data-testid={`school-edit-${s.id}`}
          >
            {t('common.edit')}
          </Button>
          <Button component={Link} to={`/admin/schools/${s.id}`} size="compact-xs" variant="light">
            {t('org.classes')}
          </Button>
          <Button component={Link} to={`/admin/students?schoolId=${s.id}`} size="compact-xs" variant="light">
            {t('nav.students')}
          </Button>
        </Group>
      ),
    },
  ];

  return (
    <Stack gap="md">
      <PageTitle data-testid="admin-schools-title">{t('org.schoolsTitle')}</PageTitle>
      {notice && (
        <Alert color="green" role="status" withCloseButton onClose={() => setNotice(null)}>
          {notice}
        </Alert>
      )}
      <Group align="flex-end" gap="sm" wrap="wrap" role="search">
        <TextInput
          label={t('common.search')}
          placeholder={t('org.schoolsSearch')}
          value={filter.search ?? ''}
          onChange={(e) => setFilter({ search: e.currentTarget.value })}
          w={260}
        />
        <RemoteSelect
          kind="oo"
          label={t('org.ooShort')}
          placeholder={t('common.any')}
          value={filter.ooId ?? null}
          onChange={(id) => setFilter({ ooId: id ?? undefined })}
          w={280}
        />
        <Button onClick={() => setEditing({ kind: 'school', school: null })} data-testid="school-create">
          {t('org.newSchool')}
        </Button>
        <Button variant="light" onClick={() => setEditing({ kind: 'oo' })} data-testid="oo-create">
          {t('org.newOo')}
        </Button>
      </Group>
      <DataTable
        caption={t('org.schoolsCaption')}
        queryKey={orgKeys.schools}
        fetchPage={listSchools}
        filter={filter}
        initialSort={{ field: 'name', dir: 'asc' }}
        pageSize={20}
        columns={columns}
        rowKey={(s) => s.id}
        exportName="schools"
        testId="schools-table"
      />
      {editing?.kind === 'school' && (
        <SchoolFormModal school={editing.school} onClose={() => setEditing(null)} />
      )}
      {editing?.kind === 'oo' && (
        <OoFormModal
          onClose={(created) => {
            setEditing(null);
            if (created) setNotice(t('org.ooCreated', { name: created.name }));
          }}
        />
      )}
    </Stack>
  );
}
