/**
 * `/coordinator/reports`, `/ugnik/reports`, `/admin/reports`: the filter bar of what the role may
 * see and a tab per report. Filters, the tab and each tab's choices live in the address, so a
 * report can be reloaded, bookmarked and sent.
 */
import { Stack, Tabs } from '@mantine/core';
import { PageTitle } from '../../../components/ui/page-title';
import type { StaffReportRole } from '../api/pickers';
import { useReportParams } from '../hooks/use-report-params';
import { useReportsT } from '../locales';
import { CommonTab } from './common-tab';
import { ConsTab } from './cons-tab';
import { ControlTab } from './control-tab';
import { DetailedTab } from './detailed-tab';
import { EquatingTab } from './equating-tab';
import { ExportsTab } from './exports-tab';
import { FilterBar } from './filter-bar';
import { ItemAnalysisTab } from './item-analysis-tab';
import { ProtocolView } from './protocol-view';
import { SpecificationTab } from './specification-tab';

export const REPORT_TABS = [
  'common',
  'cons',
  'control',
  'detailed',
  'specification',
  'items',
  'equating',
  'protocol',
  'exports',
] as const;
export type ReportTab = (typeof REPORT_TABS)[number];

const TAB_LABEL: Record<ReportTab, string> = {
  common: 'reports.tabs.common',
  cons: 'reports.tabs.cons',
  control: 'reports.tabs.control',
  detailed: 'reports.tabs.detailed',
  specification: 'reports.tabs.specification',
  items: 'reports.tabs.itemAnalysis',
  equating: 'reports.tabs.equating',
  protocol: 'reports.tabs.protocol',
  exports: 'reports.tabs.exports',
};

export function ReportsPage({ role }: { role: StaffReportRole }) {
  const { t } = useReportsT();
  const { params, filters, update } = useReportParams();
  // The exports to other systems are the admin's only.
  // Score conversion: the admin adopts, an ugnik reads (coordinators do not see it).
  const tabs = REPORT_TABS.filter(
    (value) =>
      (value !== 'exports' || role === 'admin') &&
      (value !== 'equating' || role === 'admin' || role === 'ugnik'),
  );
  const asked = params.get('tab');
  const tab: ReportTab = tabs.includes(asked as ReportTab) ? (asked as ReportTab) : 'common';
  const room =
    filters.diagnosticId && filters.classId
      ? {
          diagnosticId: filters.diagnosticId,
          classId: filters.classId,
          buildingId: null,
          subjectTestId: filters.subjectTestId,
        }
      : null;

  return (
    <Stack gap="lg">
      <PageTitle>{t('reports.title')}</PageTitle>
      <FilterBar role={role} filters={filters} onChange={update} />
      <Tabs
        value={tab}
        onChange={(value) => update({ tab: value === 'common' ? null : value })}
        keepMounted={false}
        variant="outline"
      >
        <Tabs.List aria-label={t('reports.tabs.label')}>
          {tabs.map((value) => (
            <Tabs.Tab key={value} value={value} data-testid={`report-tab-${value}`}>
              {t(TAB_LABEL[value])}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="common" pt="md">
          <CommonTab filters={filters} />
        </Tabs.Panel>
        <Tabs.Panel value="cons" pt="md">
          <ConsTab filters={filters} role={role} />
        </Tabs.Panel>
        <Tabs.Panel value="control" pt="md">
          <ControlTab filters={filters} />
        </Tabs.Panel>
        <Tabs.Panel value="detailed" pt="md">
          <DetailedTab filters={filters} role={role} />
        </Tabs.Panel>
        <Tabs.Panel value="specification" pt="md">
          <SpecificationTab filters={filters} />
        </Tabs.Panel>
        <Tabs.Panel value="items" pt="md">
          <ItemAnalysisTab filters={filters} />
        </Tabs.Panel>
        {(role === 'admin' || role === 'ugnik') && (
          <Tabs.Panel value="equating" pt="md">
            <EquatingTab filters={filters} canAdopt={role === 'admin'} />
          </Tabs.Panel>
        )}
        <Tabs.Panel value="protocol" pt="md">
          <ProtocolView room={room} />
        </Tabs.Panel>
        {role === 'admin' && (
          <Tabs.Panel value="exports" pt="md">
            <ExportsTab filters={filters} />
          </Tabs.Panel>
        )}
      </Tabs>
    </Stack>
  );
}
