import type { StaffDiagnostic, StaffDiagnosticSortField, StaffDiagnosticState } from '@attesta/contract';
import { Anchor, Badge } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { DataTable, type Column } from '../../../components/data-table/data-table';
import { useBundleT } from '../../../components/data-table/use-bundle-t';
import { instant } from '../../../components/staff-format';
import { staffBundle } from '../../../components/staff-locales';
import { listDiagnostics } from '../api/diagnostics';
import { schoolKeys, type StaffRole } from '../api/shared';
import { ChoiceFilter, SearchFilter } from './list-filters';

const STATE_COLOR = { planned: 'gray', running: 'blue', finished: 'teal', published: 'green' } as const;

interface DiagnosticsTableProps {
  role: StaffRole;
  /** Where a diagnostic's participants page lives, e.g. `/coordinator/diagnostics`. */
  basePath: string;
  actions?: ReactNode;
  rowActions?: (d: StaffDiagnostic) => ReactNode;
}

export function DiagnosticsTable({ role, basePath, actions, rowActions }: DiagnosticsTableProps) {
  const { t } = useBundleT(staffBundle);
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<StaffDiagnosticState | ''>('');
  const columns: Column<StaffDiagnostic, StaffDiagnosticSortField>[] = [
    {
      key: 'code',
      header: t('staff.diagnostics.code'),
      sortField: 'code',
      render: (d) => d.code,
      csv: (d) => d.code,
    },
    {
      key: 'name',
      header: t('staff.diagnostics.name'),
      sortField: 'name',
      render: (d) => (
        <Anchor component={Link} to={`${basePath}/${d.id}`} data-testid={`diagnostic-open-${d.id}`}>
          {d.name}
        </Anchor>
      ),
      csv: (d) => d.name,
    },
    {
      key: 'startsAt',
      header: t('staff.diagnostics.window'),
      sortField: 'startsAt',
      render: (d) => `${instant(d.startsAt)} — ${instant(d.endsAt)}`,
      csv: (d) => `${instant(d.startsAt)} — ${instant(d.endsAt)}`,
    },
    {
      key: 'parallels',
      header: t('staff.diagnostics.parallels'),
      render: (d) => d.parallels.join(', '),
      csv: (d) => d.parallels.join(', '),
    },
    {
      key: 'subjectTests',
      header: t('staff.diagnostics.subjectTests'),
      render: (d) => d.subjectTests.map((s) => s.name).join(', '),
      csv: (d) => d.subjectTests.map((s) => s.name).join(', '),
    },
    {
      key: 'status',
      header: t('staff.diagnostics.status'),
      render: (d) => <Badge color={STATE_COLOR[d.status]}>{t(`staff.diagnostics.state.${d.status}`)}</Badge>,
      csv: (d) => t(`staff.diagnostics.state.${d.status}`),
    },
    {
      key: 'participants',
      header: t('staff.diagnostics.participants'),
      render: (d) => d.participantCount,
      csv: (d) => d.participantCount,
    },
  ];
  if (rowActions) {
    columns.push({ key: 'actions', header: t('staff.common.actions'), render: rowActions });
  }
  return (
    <DataTable
      testId="diagnostics"
      queryKey={schoolKeys.diagnostics(role)}
      fetchPage={listDiagnostics(role)}
      columns={columns}
      rowKey={(d) => d.id}
      initialSort={{ field: 'startsAt', dir: 'desc' }}
      filter={{ search, status: status || undefined }}
      exportName="diagnostics"
      actions={actions}
      filters={
        <>
          <SearchFilter value={search} onChange={setSearch} />
          <ChoiceFilter
            label={t('staff.diagnostics.status')}
            value={status}
            onChange={setStatus}
            options={(['planned', 'running', 'finished', 'published'] as const).map((s) => ({
              value: s,
              label: t(`staff.diagnostics.state.${s}`),
            }))}
          />
        </>
      }
    />
  );
}
