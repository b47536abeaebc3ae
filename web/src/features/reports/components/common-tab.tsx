/** Общий: the figures of each subject test, its marks and its levels as bar charts. */
import type { ReportCommon } from '@attesta/contract';
import { BarChart } from '@mantine/charts';
import { Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { plainDate } from '../../../components/staff-format';
import { commonReport, filterQuery, reportFile, reportKeys } from '../api/reports';
import { markColor, markTextColor, num } from '../lib/format';
import type { ReportFilterValues } from '../lib/filters';
import { useReportsT } from '../locales';
import { ChartFigure } from './chart-figure';
import { DownloadLink, Downloads } from './download-link';
import { ReportEmpty, ReportQueryView } from './report-state';
import { ALL_STATS, StatHeader, statText } from './stats';

type Item = ReportCommon['items'][number];

export function CommonTab({ filters }: { filters: ReportFilterValues }) {
  const query = useQuery({
    queryKey: reportKeys.report('common', filterQuery(filters)),
    queryFn: ({ signal }) => commonReport(filters, signal),
  });
  return (
    <Stack gap="lg">
      <Downloads>
        <DownloadLink file={reportFile('common', 'xlsx', filters)} format="xlsx" testId="common-xlsx" />
        <DownloadLink file={reportFile('common', 'pdf', filters)} format="pdf" testId="common-pdf" />
      </Downloads>
      <ReportQueryView query={query}>
        {(data) => (data.items.length === 0 ? <ReportEmpty /> : <CommonView data={data} />)}
      </ReportQueryView>
    </Stack>
  );
}

function CommonView({ data }: { data: ReportCommon }) {
  const { t, lang } = useReportsT();
  const period = (item: Item) =>
    item.firstDate === item.lastDate
      ? plainDate(item.firstDate)
      : `${plainDate(item.firstDate)} — ${plainDate(item.lastDate)}`;
  return (
    <Stack gap="lg">
      <Table.ScrollContainer minWidth={1100}>
        <Table striped withTableBorder highlightOnHover data-testid="common-table">
          <Table.Caption>{t('reports.common.table')}</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th miw={220}>{t('reports.common.subjectTest')}</Table.Th>
              <Table.Th>{t('reports.stats.period')}</Table.Th>
              {ALL_STATS.map((stat) => (
                <StatHeader key={stat} stat={stat} t={t} />
              ))}
              <Table.Th ta="right">{t('reports.stats.maxScore')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data.items.map((item) => (
              <Table.Tr key={item.subjectTestId} data-testid={`common-row-${item.subjectTestId}`}>
                <Table.Th scope="row">{item.subjectTestName}</Table.Th>
                <Table.Td>{period(item)}</Table.Td>
                {ALL_STATS.map((stat) => (
                  <Table.Td key={stat} ta="right" data-stat={stat}>
                    {statText(item.stats, stat, lang)}
                  </Table.Td>
                ))}
                <Table.Td ta="right">{num(item.maxScore, lang)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {data.items.map((item) => (
        <SubjectTestCharts key={item.subjectTestId} item={item} />
      ))}
    </Stack>
  );
}

function SubjectTestCharts({ item }: { item: Item }) {
  const { t } = useReportsT();
  const { stats } = item;
  const marks = stats.marks.map((m) => ({ mark: m.mark, count: m.count }));
  const levels = stats.levels.map((l) => ({ level: l.level, count: l.count }));
  const listed = (rows: { label: string; count: number }[]) =>
    rows.map((r) => `${r.label}: ${r.count}`).join('; ');
  return (
    <Paper component="section" p={0} data-testid={`common-charts-${item.subjectTestId}`}>
      <Title order={2} size="h4" mb="sm">
        {item.subjectTestName}
      </Title>
      {stats.scored === 0 ? (
        <Text c="dimmed">{t('reports.common.noResults')}</Text>
      ) : (
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          <ChartFigure
            title={t('reports.common.marksChart', { name: item.subjectTestName })}
            summary={t('reports.common.marksAria', {
              name: item.subjectTestName,
              values: listed(
                marks.map((m) => ({ label: t('reports.stats.mark', { mark: m.mark }), count: m.count })),
              ),
            })}
            testId={`marks-chart-${item.subjectTestId}`}
          >
            <BarChart
              h={220}
              data={marks.map((m) => ({ mark: m.mark, [`m${m.mark}`]: m.count }))}
              dataKey="mark"
              type="stacked"
              series={marks.map((m) => ({
                name: `m${m.mark}`,
                label: t('reports.stats.mark', { mark: m.mark }),
                color: markColor(m.mark),
              }))}
              barProps={{ isAnimationActive: false }}
              xAxisLabel={t('reports.stats.marks')}
              yAxisLabel={t('reports.common.count')}
              yAxisProps={{ allowDecimals: false }}
            />
          </ChartFigure>
          {levels.length === 0 ? (
            <Text c="dimmed">{t('reports.common.noLevels')}</Text>
          ) : (
            <ChartFigure
              title={t('reports.common.levelsChart', { name: item.subjectTestName })}
              summary={t('reports.common.levelsAria', {
                name: item.subjectTestName,
                values: listed(levels.map((l) => ({ label: l.level, count: l.count }))),
              })}
              testId={`levels-chart-${item.subjectTestId}`}
            >
              <BarChart
                h={220}
                data={levels}
                dataKey="level"
                orientation="vertical"
                series={[{ name: 'count', label: t('reports.common.count'), color: 'grape.6' }]}
                barProps={{ isAnimationActive: false }}
                withBarValueLabel
                yAxisProps={{ width: 140 }}
                xAxisProps={{ allowDecimals: false }}
              />
            </ChartFigure>
          )}
        </SimpleGrid>
      )}
      {stats.scored > 0 && <MarkLegend marks={marks} />}
    </Paper>
  );
}

/** The mark counts as text under the charts (also what a screen reader reads first). */
function MarkLegend({ marks }: { marks: { mark: string; count: number }[] }) {
  const { t } = useReportsT();
  if (marks.length === 0) return null;
  return (
    <Text size="sm" mt="xs" data-testid="mark-counts">
      {t('reports.stats.marks')}:{' '}
      {marks.map((m, i) => (
        <span key={m.mark}>
          {i > 0 && ', '}
          <Text span fw={600} c={markTextColor(m.mark)}>
            «{m.mark}»
          </Text>{' '}
          — {m.count}
        </span>
      ))}
    </Text>
  );
}
