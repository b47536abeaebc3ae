import type {
  StaffBuilding,
  StaffBuildingSortField,
  StaffClass,
  StaffClassSortField,
} from '@attesta/contract';
import { Stack } from '@mantine/core';
import { useState } from 'react';
import { DataTable, type Column } from '../../../components/data-table/data-table';
import { useBundleT } from '../../../components/data-table/use-bundle-t';
import { PageTitle } from '../../../components/ui/page-title';
import { parallelLabel } from '../../../components/staff-format';
import { staffBundle } from '../../../components/staff-locales';
import { listBuildings } from '../api/buildings';
import { listClasses } from '../api/classes';
import { schoolKeys, type StaffRole } from '../api/shared';
import { GradeFilter, SearchFilter } from './list-filters';

export function ClassesPage({ role }: { role: StaffRole }) {
  const { t } = useBundleT(staffBundle);
  const [search, setSearch] = useState('');
  const [parallel, setParallel] = useState('');
  const columns: Column<StaffClass, StaffClassSortField>[] = [
    {
      key: 'name',
      header: t('staff.classes.name'),
      sortField: 'name',
      render: (c) => c.name,
      csv: (c) => c.name,
    },
    {
      key: 'parallel',
      header: t('staff.classes.parallel'),
      sortField: 'parallel',
      render: (c) => parallelLabel(c.parallel, t),
      csv: (c) => c.parallel,
    },
    {
      key: 'building',
      header: t('staff.classes.building'),
      render: (c) => c.buildingName ?? '—',
      csv: (c) => c.buildingName,
    },
    {
      key: 'studentCount',
      header: t('staff.classes.studentCount'),
      sortField: 'studentCount',
      render: (c) => c.studentCount,
      csv: (c) => c.studentCount,
    },
  ];
  return (
    <Stack gap="lg">
      <PageTitle data-testid={`${role}-classes-title`}>{t('staff.classes.title')}</PageTitle>
      <DataTable
        testId="classes"
        queryKey={schoolKeys.classes(role)}
        fetchPage={listClasses(role)}
        columns={columns}
        rowKey={(c) => c.id}
        initialSort={{ field: 'name', dir: 'asc' }}
        filter={{ search, parallel: parallel ? Number(parallel) : undefined }}
        exportName="classes"
        filters={
          <>
            <SearchFilter value={search} onChange={setSearch} />
            <GradeFilter label={t('staff.classes.parallel')} value={parallel} onChange={setParallel} />
          </>
        }
      />
    </Stack>
  );
}

export function BuildingsPage({ role }: { role: StaffRole }) {
  const { t } = useBundleT(staffBundle);
  const [search, setSearch] = useState('');
  const columns: Column<StaffBuilding, StaffBuildingSortField>[] = [
    {
      key: 'name',
      header: t('staff.buildings.name'),
      sortField: 'name',
      render: (b) => b.name,
      csv: (b) => b.name,
    },
    {
      key: 'address',
      header: t('staff.buildings.address'),
      render: (b) => b.address ?? '—',
      csv: (b) => b.address,
    },
    {
      key: 'classCount',
      header: t('staff.buildings.classCount'),
      render: (b) => b.classCount,
      csv: (b) => b.classCount,
    },
    {
      key: 'studentCount',
      header: t('staff.buildings.studentCount'),
      render: (b) => b.studentCount,
      csv: (b) => b.studentCount,
    },
  ];
  return (
    <Stack gap="lg">
      <PageTitle data-testid={`${role}-buildings-title`}>{t('staff.buildings.title')}</PageTitle>
      <DataTable
        testId="buildings"
        queryKey={schoolKeys.buildings(role)}
        fetchPage={listBuildings(role)}
        columns={columns}
        rowKey={(b) => b.id}
        initialSort={{ field: 'name', dir: 'asc' }}
        filter={{ search }}
        exportName="buildings"
        filters={<SearchFilter value={search} onChange={setSearch} />}
      />
    </Stack>
  );
}
