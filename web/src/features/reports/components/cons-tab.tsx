/**
 * Сводный: per subject test, the total of the caller's scope, each school and each of its classes,
 * ordered by the server (sort/dir in the address); marks by school (or by class within one school)
 * as a stacked chart of shares.
 */
import type { ReportCons, ReportStats } from '@attesta/contract';
import { BarChart } from '@mantine/charts';
import { Stack, Table, Title, UnstyledButton } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { StaffReportRole } from '../api/pickers';
import { consReport, filterQuery, reportFile, reportKeys, type ConsSort, type SortDir } from '../api/reports';
import { useReportParams } from '../hooks/use-report-params';
import { markColor } from '../lib/format';
import type { ReportFilterValues } from '../lib/filters';
import { useReportsT } from '../locales';
import { ChartFigure } from './chart-figure';
import { DownloadLink, Downloads } from './download-link';
import { ReportEmpty, ReportQueryView } from './report-state';
import { markCount, markKeys, statText, StatHeader, type StatKey } from './stats';

const SORTS: readonly ConsSort[] = ['name', 'registered', 'tookPart', 'scored', 'meanScore', 'meanPercent'];
const COLUMNS: StatKey[] = [
  'registered',
  'tookPart',
  'absent',
  'pending',
  'finished',
  'unfinished',
  'scored',
  'meanScore',
  'meanPercent',
];

export function readConsSort(params: URLSearchParams): { sort: ConsSort; dir: SortDir } {
  const sort = params.get('sort');
  return {
    sort: SORTS.includes(sort as ConsSort) ? (sort as ConsSort) : 'name',
    dir: params.get('dir') === 'desc' ? 'desc' : 'asc',
  };
}

export function ConsTab({ filters, role }: { filters: ReportFilterValues; role: StaffReportRole }) {
  const { params, update } = useReportParams();
  const order = readConsSort(params);
  const query = useQuery({
    queryKey: reportKeys.report('cons', { ...filterQuery(filters), ...order }),
    queryFn: ({ signal }) => consReport(filters, order, signal),
    placeholderData: keepPreviousData,
  });
  const onSort = (sort: ConsSort) =>
    update({ sort, dir: order.sort === sort && order.dir === 'asc' ? 'desc' : 'asc' });
  return (
    <Stack gap="lg">
      <Downloads>
        <DownloadLink file={reportFile('cons', 'xlsx', filters, order)} format="xlsx" testId="cons-xlsx" />
        <DownloadLink file={reportFile('cons', 'pdf', filters, order)} format="pdf" testId="cons-pdf" />
      </Downloads>
      <ReportQueryView query={query}>
        {(data) =>
          data.items.length === 0 ? (
            <ReportEmpty />
          ) : (
            <Stack gap="xl">
              {data.items.map((item) => (
                <ConsItem key={item.subjectTestId} item={item} order={order} onSort={onSort} role={role} />
              ))}
            </Stack>
          )
        }
      </ReportQueryView>
    </Stack>
  );
}

type Item = ReportCons['items'][number];

function ConsItem({
  item,
  order,
  onSort,
  role,
}: {
  item: Item;
  order: { sort: ConsSort; dir: SortDir };
  onSort: (sort: ConsSort) => void;
  role: StaffReportRole;
}) {
  const { t, lang } = useReportsT();
  const marks = markKeys([item.total, ...item.schools.map((s) => s.stats)]);
  const schoolName = (name: string | null) => name ?? t('reports.cons.noSchool');
  const className = (name: string | null) => name ?? t('reports.cons.noClass');

  const sortable = (sort: ConsSort, label: string, stat?: StatKey, minWidth?: number) => {
    const active = order.sort === sort;
    return (
      <Table.Th
        key={sort}
        miw={minWidth}
        ta={stat ? 'right' : undefined}
        aria-sort={active ? (order.dir === 'asc' ? 'ascending' : 'descending') : 'none'}
      >
        <UnstyledButton
          onClick={() => onSort(sort)}
          aria-label={t('reports.cons.sortBy', { column: label })}
          fw={700}
          fz="sm"
          data-testid={`cons-sort-${sort}`}
        >
          {label}
          {active ? (order.dir === 'asc' ? ' ▲' : ' ▼') : ''}
        </UnstyledButton>
      </Table.Th>
    );
  };

  const cells = (stats: ReportStats) => (
    <>
      {COLUMNS.map((stat) => (
        <Table.Td key={stat} ta="right" data-stat={stat}>
          {statText(stats, stat, lang)}
        </Table.Td>
      ))}
      {marks.map((mark) => (
        <Table.Td key={mark} ta="right" data-mark={mark}>
          {markCount(stats, mark)}
        </Table.Td>
      ))}
    </>
  );

  return (
    <Stack gap="md" component="section" data-testid={`cons-item-${item.subjectTestId}`}>
      <Title order={2} size="h4">
        {item.subjectTestName}
      </Title>
      <Table.ScrollContainer minWidth={960}>
        <Table withTableBorder highlightOnHover data-testid="cons-table">
          <Table.Caption>{t('reports.cons.table', { name: item.subjectTestName })}</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              {sortable('name', t('reports.cons.name'), undefined, 220)}
              {COLUMNS.map((stat) =>
                SORTS.includes(stat as ConsSort) ? (
                  sortable(stat as ConsSort, t(`reports.stats.${stat}`), stat)
                ) : (
                  <StatHeader key={stat} stat={stat} t={t} />
                ),
              )}
              {marks.map((mark) => (
                <Table.Th key={mark} ta="right">
                  {t('reports.stats.mark', { mark })}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            <Table.Tr fw={700} bg="gray.0" data-testid="cons-total">
              <Table.Th scope="row">
                {role === 'coordinator' ? t('reports.cons.totalCoordinator') : t('reports.cons.total')}
              </Table.Th>
              {cells(item.total)}
            </Table.Tr>
            {item.schools.map((school) => [
              <Table.Tr key={`s${school.schoolId}`} fw={600} data-testid="cons-school">
                <Table.Th scope="row">{schoolName(school.schoolName)}</Table.Th>
                {cells(school.stats)}
              </Table.Tr>,
              ...school.classes.map((cls) => (
                <Table.Tr key={`c${school.schoolId}-${cls.classId}`} data-testid="cons-class">
                  <Table.Td pl="xl">{className(cls.className)}</Table.Td>
                  {cells(cls.stats)}
                </Table.Tr>
              )),
            ])}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <MarksByGroup item={item} marks={marks} />
    </Stack>
  );
}

/** Shares of the marks by school; with one school, by its classes. */
function MarksByGroup({ item, marks }: { item: Item; marks: string[] }) {
  const { t } = useReportsT();
  const oneSchool = item.schools.length === 1;
  const groups = oneSchool
    ? item.schools[0]!.classes.map((c) => ({
        name: c.className ?? t('reports.cons.noClass'),
        stats: c.stats,
      }))
    : item.schools.map((s) => ({ name: s.schoolName ?? t('reports.cons.noSchool'), stats: s.stats }));
  const scored = groups.filter((g) => g.stats.scored > 0);
  if (scored.length === 0 || marks.length === 0) return null;
  const data = scored.map((g) => ({
    group: g.name,
    ...Object.fromEntries(marks.map((mark) => [`m${mark}`, markCount(g.stats, mark)])),
  }));
  const title = oneSchool
    ? t('reports.cons.chartClasses', { name: item.subjectTestName })
    : t('reports.cons.chart', { name: item.subjectTestName });
  const summary = `${t('reports.cons.chartAria', { name: item.subjectTestName })}: ${scored
    .map((g) => `${g.name} — ${marks.map((m) => `«${m}» ${markCount(g.stats, m)}`).join(', ')}`)
    .join('; ')}`;
  return (
    <ChartFigure title={title} summary={summary} testId={`cons-chart-${item.subjectTestId}`}>
      <BarChart
        h={Math.max(160, 48 * data.length + 60)}
        data={data}
        dataKey="group"
        type="percent"
        orientation="vertical"
        withLegend
        series={marks.map((mark) => ({
          name: `m${mark}`,
          label: t('reports.stats.mark', { mark }),
          color: markColor(mark),
        }))}
        barProps={{ isAnimationActive: false }}
        yAxisProps={{ width: 160 }}
        xAxisLabel={t('reports.cons.share')}
      />
    </ChartFigure>
  );
}
