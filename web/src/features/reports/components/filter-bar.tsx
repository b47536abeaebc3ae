/** The filters every report tab shares: pickers of what the role may see, and the period. */
import { Button, Group, Paper, TextInput } from '@mantine/core';
import type { StaffReportRole } from '../api/pickers';
import type { ParamChange } from '../hooks/use-report-params';
import { hasAnyFilter, type ReportFilterValues } from '../lib/filters';
import { useReportsT } from '../locales';
import {
  ClassPicker,
  DiagnosticPicker,
  SchoolPicker,
  SubjectTestPicker,
  useDiagnosticDetail,
} from './pickers';

const PICKER_WIDTH = 260;

export function FilterBar({
  role,
  filters,
  onChange,
}: {
  role: StaffReportRole;
  filters: ReportFilterValues;
  onChange: (change: ParamChange) => void;
}) {
  const { t } = useReportsT();
  const diagnostic = useDiagnosticDetail(role, filters.diagnosticId);
  return (
    <Paper
      component="section"
      withBorder
      p="md"
      aria-label={t('reports.filters.legend')}
      data-testid="report-filters"
    >
      <Group align="flex-end" gap="md">
        <DiagnosticPicker
          role={role}
          w={PICKER_WIDTH * 1.6}
          value={filters.diagnosticId}
          onChange={(diagnosticId) => onChange({ diagnosticId, subjectTestId: null })}
          data-testid="filter-diagnostic"
        />
        <SubjectTestPicker
          w={PICKER_WIDTH * 1.3}
          diagnostic={diagnostic.data}
          value={filters.subjectTestId}
          onChange={(subjectTestId) => onChange({ subjectTestId })}
          data-testid="filter-subject-test"
        />
        {role !== 'coordinator' && (
          <SchoolPicker
            role={role}
            w={PICKER_WIDTH}
            diagnostic={diagnostic.data}
            value={filters.schoolId}
            onChange={(schoolId) => onChange({ schoolId, classId: null })}
            data-testid="filter-school"
          />
        )}
        <ClassPicker
          role={role}
          w={PICKER_WIDTH * 0.85}
          schoolId={filters.schoolId}
          value={filters.classId}
          onChange={(classId) => onChange({ classId })}
          data-testid="filter-class"
        />
        <TextInput
          type="date"
          label={t('reports.filters.startDate')}
          value={filters.startDate ?? ''}
          max={filters.endDate ?? undefined}
          onChange={(event) => onChange({ startDate: event.currentTarget.value || null })}
          data-testid="filter-start-date"
        />
        <TextInput
          type="date"
          label={t('reports.filters.endDate')}
          value={filters.endDate ?? ''}
          min={filters.startDate ?? undefined}
          onChange={(event) => onChange({ endDate: event.currentTarget.value || null })}
          data-testid="filter-end-date"
        />
        <Button
          variant="subtle"
          disabled={!hasAnyFilter(filters)}
          onClick={() =>
            onChange({
              diagnosticId: null,
              subjectTestId: null,
              schoolId: null,
              classId: null,
              startDate: null,
              endDate: null,
            })
          }
          data-testid="filter-reset"
        >
          {t('reports.filters.reset')}
        </Button>
      </Group>
    </Paper>
  );
}
