/**
 * Спецификация: mastery of each element of the specification (a tree) by school or by class, as a
 * heat map: each cell holds its percent and takes its colour from it.
 */
import type { ReportSpecification } from '@attesta/contract';
import { Group, SegmentedControl, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ApiError } from '../../../lib/api-client';
import { filterQuery, reportFile, reportKeys, specificationReport } from '../api/reports';
import { useReportParams } from '../hooks/use-report-params';
import { DASH, heatColor, num, percent } from '../lib/format';
import { readId, type ReportFilterValues } from '../lib/filters';
import { useReportsT } from '../locales';
import { DownloadLink, Downloads } from './download-link';
import { SpecificationPicker } from './pickers';
import { ReportEmpty, ReportError, ReportLoading } from './report-state';
import './reports.css';

export function SpecificationTab({ filters }: { filters: ReportFilterValues }) {
  const { t } = useReportsT();
  const { params, update } = useReportParams();
  const specId = readId(params, 'specId');
  const by = params.get('by') === 'class' ? 'class' : 'school';
  const query = useQuery({
    queryKey: reportKeys.report('specification', { ...filterQuery(filters), specId }),
    queryFn: ({ signal }) => specificationReport(filters, specId, signal),
  });
  // Neither the test nor the diagnostic has a specification: the server asks for one (400).
  const noSpec =
    query.error instanceof ApiError && query.error.status === 400 && query.error.code === 'validation_failed';
  return (
    <Stack gap="lg">
      <Group align="flex-end" gap="md">
        <SpecificationPicker
          w={360}
          value={specId}
          onChange={(id) => update({ specId: id })}
          data-testid="filter-specification"
        />
        <SegmentedControl
          value={by}
          onChange={(value) => update({ by: value === 'class' ? 'class' : null })}
          data={[
            { value: 'school', label: t('reports.specification.bySchool') },
            { value: 'class', label: t('reports.specification.byClass') },
          ]}
          aria-label={t('reports.specification.columns')}
          data-testid="specification-by"
        />
        <Downloads>
          <DownloadLink
            file={reportFile('specification', 'xlsx', filters, specId ? { specId } : {})}
            format="xlsx"
            testId="specification-xlsx"
            disabled={noSpec}
          />
        </Downloads>
      </Group>
      {noSpec ? (
        <Text c="dimmed" data-testid="specification-none">
          {t('reports.specification.none')}
        </Text>
      ) : query.error ? (
        <ReportError error={query.error} onRetry={() => void query.refetch()} />
      ) : !query.data ? (
        <ReportLoading />
      ) : query.data.elements.length === 0 || query.data.rows.length === 0 ? (
        <ReportEmpty />
      ) : (
        <HeatMap data={query.data} by={by} />
      )}
    </Stack>
  );
}

function HeatMap({ data, by }: { data: ReportSpecification; by: 'school' | 'class' }) {
  const { t, lang } = useReportsT();
  const total = data.rows.filter((r) => r.level === 'total');
  const groups = data.rows.filter((r) => r.level === by);
  const columns = [...total, ...groups];
  const cellsOf = new Map(columns.map((row) => [row, new Map(row.cells.map((c) => [c.elementId, c]))]));
  const heading = (row: ReportSpecification['rows'][number]) =>
    row.level === 'total'
      ? t('reports.specification.total')
      : row.level === 'school'
        ? (row.schoolName ?? DASH)
        : `${row.className ?? DASH}${row.schoolName ? ` (${row.schoolName})` : ''}`;

  return (
    <Stack gap="xs">
      <Text size="sm" c="dimmed">
        {t('reports.specification.legend')}
      </Text>
      <Table.ScrollContainer
        minWidth={360 + columns.length * 96}
        type="native"
        tabIndex={0}
        role="region"
        aria-label={t('reports.tabs.specification')}
      >
        <Table
          withTableBorder
          withColumnBorders
          className="report-sticky-table report-heat-table"
          data-testid="specification-heatmap"
        >
          <Table.Caption>
            {t('reports.specification.caption', { name: data.specification.name })}
          </Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th className="sticky-col last-sticky" style={{ left: 0, minWidth: 280 }}>
                {t('reports.specification.element')}
              </Table.Th>
              {columns.map((row) => (
                <Table.Th
                  key={`${row.level}-${row.schoolId}-${row.classId}`}
                  ta="center"
                  data-testid="heat-column"
                >
                  <div>{heading(row)}</div>
                  <Text size="xs" c="dimmed" fw={400}>
                    {t('reports.specification.works', { count: row.works })}
                  </Text>
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data.elements.map((element) => (
              <Table.Tr key={element.id} data-testid="heat-row">
                <Table.Th
                  scope="row"
                  className="sticky-col last-sticky"
                  style={{
                    left: 0,
                    paddingLeft: `calc(var(--mantine-spacing-sm) + ${element.depth * 16}px)`,
                  }}
                  fw={element.depth === 0 ? 700 : 400}
                >
                  {element.code} {element.name}
                </Table.Th>
                {columns.map((row) => {
                  const cell = cellsOf.get(row)?.get(element.id);
                  const value = cell?.percent ?? null;
                  return (
                    <Table.Td
                      key={`${row.level}-${row.schoolId}-${row.classId}`}
                      className="heat-cell"
                      style={{ background: heatColor(value) }}
                      title={
                        cell && cell.max > 0
                          ? `${num(cell.earned, lang)} / ${num(cell.max, lang)}`
                          : t('reports.specification.noTasks')
                      }
                      data-percent={value ?? ''}
                    >
                      {percent(value, lang)}
                    </Table.Td>
                  );
                })}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
