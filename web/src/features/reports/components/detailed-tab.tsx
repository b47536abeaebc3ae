/**
 * Подробный: one row per counted result with a column per task position, scrolled sideways with
 * the code and the surname kept in view. School and class are named from the consolidated report
 * of the same filters (the rows carry ids only).
 */
import type { ReportCons, ReportDetailedRow } from '@attesta/contract';
import { Alert, Group, Pagination, Stack, Table, Text, Tooltip } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { StaffReportRole } from '../api/pickers';
import { consReport, detailedReport, filterQuery, reportFile, reportKeys } from '../api/reports';
import { DASH, num, percent } from '../lib/format';
import type { ReportFilterValues } from '../lib/filters';
import { useReportsT } from '../locales';
import { DownloadLink, Downloads } from './download-link';
import { ReportEmpty, ReportQueryView } from './report-state';
import './reports.css';

const PAGE_SIZE = 100;
const CODE_WIDTH = 130;

export function DetailedTab({ filters, role }: { filters: ReportFilterValues; role: StaffReportRole }) {
  const { t } = useReportsT();
  // The whole region's rows would be one enormous list: the ugnik and the admin narrow it first.
  const ready = role === 'coordinator' || filters.diagnosticId !== null || filters.subjectTestId !== null;
  // A page of rows from the server; other filters start again from the first page.
  const filterKey = JSON.stringify(filterQuery(filters));
  const [paging, setPaging] = useState({ filterKey, page: 1 });
  const page = paging.filterKey === filterKey ? paging.page : 1;
  const query = useQuery({
    queryKey: reportKeys.report('detailed', { ...filterQuery(filters), page, pageSize: PAGE_SIZE }),
    queryFn: ({ signal }) => detailedReport(filters, { page, pageSize: PAGE_SIZE }, signal),
    enabled: ready,
    placeholderData: keepPreviousData,
  });
  const names = useQuery({
    queryKey: reportKeys.report('cons', { ...filterQuery(filters), sort: 'name', dir: 'asc' }),
    queryFn: ({ signal }) => consReport(filters, { sort: 'name', dir: 'asc' }, signal),
    enabled: ready,
  });
  return (
    <Stack gap="lg">
      <Downloads>
        <DownloadLink
          file={reportFile('detailed', 'xlsx', filters)}
          format="xlsx"
          testId="detailed-xlsx"
          disabled={!ready}
        />
      </Downloads>
      {!ready ? (
        <Text c="dimmed" data-testid="detailed-choose">
          {t('reports.detailed.chooseFirst')}
        </Text>
      ) : (
        <ReportQueryView query={query}>
          {(data) =>
            data.rows.length === 0 ? (
              <ReportEmpty />
            ) : (
              <DetailedTable
                rows={data.rows}
                total={data.total}
                page={page}
                pages={Math.max(1, Math.ceil(data.total / PAGE_SIZE))}
                onPage={(next) => setPaging({ filterKey, page: next })}
                names={names.data}
                mixed={
                  filters.subjectTestId === null &&
                  (names.data?.items.filter((item) => item.total.scored > 0).length ?? 0) > 1
                }
              />
            )
          }
        </ReportQueryView>
      )}
    </Stack>
  );
}

function nameMaps(cons: ReportCons | undefined) {
  const schools = new Map<number, string>();
  const classes = new Map<number, string>();
  for (const item of cons?.items ?? [])
    for (const school of item.schools) {
      if (school.schoolId && school.schoolName) schools.set(school.schoolId, school.schoolName);
      for (const cls of school.classes)
        if (cls.classId && cls.className) classes.set(cls.classId, cls.className);
    }
  return { schools, classes };
}

function DetailedTable({
  rows,
  total,
  page,
  pages,
  onPage,
  names,
  mixed,
}: {
  rows: ReportDetailedRow[];
  total: number;
  page: number;
  pages: number;
  onPage: (page: number) => void;
  names: ReportCons | undefined;
  mixed: boolean;
}) {
  const { t, lang } = useReportsT();
  const { schools, classes } = useMemo(() => nameMaps(names), [names]);
  /** Every task position that occurs, with the largest maximum seen there. */
  const positions = useMemo(() => {
    const max = new Map<number, number>();
    for (const row of rows)
      for (const task of row.tasks)
        max.set(task.position, Math.max(max.get(task.position) ?? 0, task.maxScore));
    return [...max.entries()].sort((a, b) => a[0] - b[0]);
  }, [rows]);
  const hasSurnames = rows.some((r) => r.surname);

  return (
    <Stack gap="sm">
      {mixed && positions.length > 0 && (
        <Alert color="yellow" variant="light" data-testid="detailed-mixed">
          {t('reports.detailed.mixedTests')}
        </Alert>
      )}
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {t('reports.detailed.rows', { count: total })}
        </Text>
        {pages > 1 && (
          <Pagination size="sm" total={pages} value={page} onChange={onPage} data-testid="detailed-pages" />
        )}
      </Group>
      {/* A table wider than the page scrolls: the keyboard reaches it to scroll it. */}
      <Table.ScrollContainer
        minWidth={700 + positions.length * 56}
        type="native"
        tabIndex={0}
        role="region"
        aria-label={t('reports.tabs.detailed')}
      >
        <Table
          withTableBorder
          withColumnBorders
          highlightOnHover
          className="report-sticky-table"
          data-testid="detailed-table"
        >
          <Table.Caption>{t('reports.detailed.caption')}</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th
                className={`sticky-col${hasSurnames ? '' : ' last-sticky'}`}
                style={{ left: 0, minWidth: CODE_WIDTH }}
              >
                {t('reports.detailed.code')}
              </Table.Th>
              {hasSurnames && (
                <Table.Th className="sticky-col last-sticky" style={{ left: CODE_WIDTH, minWidth: 160 }}>
                  {t('reports.detailed.surname')}
                </Table.Th>
              )}
              <Table.Th>{t('reports.detailed.school')}</Table.Th>
              <Table.Th>{t('reports.detailed.class')}</Table.Th>
              <Table.Th ta="right">{t('reports.detailed.variant')}</Table.Th>
              <Table.Th ta="right">{t('reports.detailed.score')}</Table.Th>
              <Table.Th ta="right">{t('reports.detailed.percent')}</Table.Th>
              <Table.Th>{t('reports.detailed.mark')}</Table.Th>
              <Table.Th>{t('reports.detailed.level')}</Table.Th>
              {positions.map(([position, max]) => (
                <Table.Th key={position} ta="center" data-task={position}>
                  <Tooltip label={t('reports.detailed.taskTitle', { position, max: num(max, lang) })}>
                    <span aria-label={t('reports.detailed.taskTitle', { position, max: num(max, lang) })}>
                      {t('reports.detailed.task', { position })}
                    </span>
                  </Tooltip>
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => {
              const byPosition = new Map(row.tasks.map((task) => [task.position, task]));
              return (
                <Table.Tr key={row.participantTestId} data-testid="detailed-row">
                  <Table.Th
                    scope="row"
                    className={`sticky-col${hasSurnames ? '' : ' last-sticky'}`}
                    style={{
                      left: 0,
                      minWidth: CODE_WIDTH,
                      fontFamily: 'var(--mantine-font-family-monospace)',
                    }}
                  >
                    {row.code}
                  </Table.Th>
                  {hasSurnames && (
                    <Table.Td className="sticky-col last-sticky" style={{ left: CODE_WIDTH }}>
                      {row.surname ?? t('reports.detailed.impersonal')}
                    </Table.Td>
                  )}
                  <Table.Td>{(row.schoolId && schools.get(row.schoolId)) || DASH}</Table.Td>
                  <Table.Td>{(row.classId && classes.get(row.classId)) || DASH}</Table.Td>
                  <Table.Td ta="right">{row.variant}</Table.Td>
                  <Table.Td ta="right" data-col="score">
                    {num(row.primaryScore, lang)} / {num(row.maxScore, lang)}
                  </Table.Td>
                  <Table.Td ta="right">{percent(row.percent, lang)}</Table.Td>
                  <Table.Td>{row.mark ?? DASH}</Table.Td>
                  <Table.Td>{row.level ?? DASH}</Table.Td>
                  {positions.map(([position]) => {
                    const task = byPosition.get(position);
                    const full = task && task.score !== null && task.score >= task.maxScore;
                    return (
                      <Table.Td
                        key={position}
                        ta="center"
                        data-task={position}
                        c={task && task.score === 0 ? 'red.8' : full ? 'teal.8' : undefined}
                        title={task && task.score === null ? t('reports.detailed.awaiting') : undefined}
                      >
                        {!task ? DASH : task.score === null ? '…' : num(task.score, lang)}
                      </Table.Td>
                    );
                  })}
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
