/**
 * Контроль: attendance per test, school, class and day; works started and not finished; and the
 * works an inspector should look at, each kind of sign explained in words with its threshold.
 */
import type { ReportAnomaly, ReportControl } from '@attesta/contract';
import { Alert, Badge, List, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { instant, plainDate } from '../../../components/staff-format';
import { formatDuration } from '../../../lib/format';
import { controlReport, filterQuery, reportFile, reportKeys } from '../api/reports';
import { num } from '../lib/format';
import type { ReportFilterValues } from '../lib/filters';
import { useReportsT } from '../locales';
import { DownloadLink, Downloads } from './download-link';
import { ReportEmpty, ReportQueryView } from './report-state';

const ANOMALY_KINDS = [
  'fast_finish',
  'offline_gap',
  'integrity_events',
  'proctoring',
  'similar_answers',
] as const;
const KNOWN_EVENTS = new Set([
  'blur',
  'focus',
  'fullscreen_exit',
  'fullscreen_enter',
  'offline',
  'online',
  'visibility_hidden',
  'visibility_visible',
  'connection_lost',
  'connection_restored',
  'second_device',
]);
const ATTENDANCE = [
  'registered',
  'tookPart',
  'absent',
  'pending',
  'annulled',
  'finished',
  'unfinished',
] as const;

export function ControlTab({ filters }: { filters: ReportFilterValues }) {
  const query = useQuery({
    queryKey: reportKeys.report('control', filterQuery(filters)),
    queryFn: ({ signal }) => controlReport(filters, signal),
  });
  return (
    <Stack gap="lg">
      <Downloads>
        <DownloadLink file={reportFile('control', 'xlsx', filters)} format="xlsx" testId="control-xlsx" />
        <DownloadLink file={reportFile('control', 'pdf', filters)} format="pdf" testId="control-pdf" />
      </Downloads>
      <ReportQueryView query={query}>
        {(data) =>
          data.attendance.length === 0 && data.unfinished.length === 0 && data.anomalies.length === 0 ? (
            <ReportEmpty />
          ) : (
            <ControlView data={data} />
          )
        }
      </ReportQueryView>
    </Stack>
  );
}

/** Names of the tests, schools and classes the answer mentions, from its attendance lines. */
function namesOf(data: ReportControl) {
  const tests = new Map<number, string>();
  const schools = new Map<number, string>();
  const classes = new Map<number, string>();
  for (const line of data.attendance) {
    tests.set(line.subjectTestId, line.subjectTestName);
    if (line.schoolId && line.schoolName) schools.set(line.schoolId, line.schoolName);
    if (line.classId && line.className) classes.set(line.classId, line.className);
  }
  return { tests, schools, classes };
}

function ControlView({ data }: { data: ReportControl }) {
  const { t, lang } = useReportsT();
  const names = namesOf(data);
  const place = (p: { schoolId: number | null; classId: number | null }) =>
    [p.schoolId ? names.schools.get(p.schoolId) : null, p.classId ? names.classes.get(p.classId) : null]
      .filter(Boolean)
      .join(', ') || '—';
  const person = (p: { participantName?: string; code: string }) =>
    p.participantName ? `${p.participantName} (${p.code})` : `${t('reports.control.impersonal')} ${p.code}`;

  return (
    <Stack gap="xl">
      <Stack gap="sm" component="section">
        <Title order={2} size="h4">
          {t('reports.control.attendance')}
        </Title>
        {/* A table wider than the page scrolls: its viewport takes the focus so the keyboard can scroll it. */}
        <Table.ScrollContainer
          minWidth={900}
          scrollAreaProps={{
            viewportProps: { tabIndex: 0, role: 'region', 'aria-label': t('reports.control.attendance') },
          }}
        >
          <Table striped withTableBorder data-testid="control-attendance">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('reports.control.subjectTest')}</Table.Th>
                <Table.Th>{t('reports.control.school')}</Table.Th>
                <Table.Th>{t('reports.control.class')}</Table.Th>
                <Table.Th>{t('reports.control.testDate')}</Table.Th>
                {ATTENDANCE.map((key) => (
                  <Table.Th key={key} ta="right">
                    {t(`reports.stats.${key}`)}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.attendance.map((line) => (
                <Table.Tr key={`${line.subjectTestId}-${line.schoolId}-${line.classId}-${line.testDate}`}>
                  <Table.Td>{line.subjectTestName}</Table.Td>
                  <Table.Td>{line.schoolName ?? '—'}</Table.Td>
                  <Table.Td>{line.className ?? '—'}</Table.Td>
                  <Table.Td>{plainDate(line.testDate)}</Table.Td>
                  {ATTENDANCE.map((key) => (
                    <Table.Td key={key} ta="right" data-stat={key}>
                      {num(line[key], lang)}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Stack>

      <Stack gap="sm" component="section">
        <Title order={2} size="h4">
          {t('reports.control.unfinished')}
        </Title>
        {data.unfinished.length === 0 ? (
          <Text c="dimmed">{t('reports.control.unfinishedNone')}</Text>
        ) : (
          <Table.ScrollContainer
            minWidth={800}
            scrollAreaProps={{
              viewportProps: { tabIndex: 0, role: 'region', 'aria-label': t('reports.control.unfinished') },
            }}
          >
            <Table striped withTableBorder data-testid="control-unfinished">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('reports.control.participant')}</Table.Th>
                  <Table.Th>{t('reports.control.subjectTest')}</Table.Th>
                  <Table.Th>{t('reports.control.class')}</Table.Th>
                  <Table.Th>{t('reports.control.status')}</Table.Th>
                  <Table.Th>{t('reports.control.startedAt')}</Table.Th>
                  <Table.Th>{t('reports.control.deadlineAt')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.unfinished.map((w) => (
                  <Table.Tr key={w.examWorkId}>
                    <Table.Td>{person(w)}</Table.Td>
                    <Table.Td>{names.tests.get(w.subjectTestId) ?? '—'}</Table.Td>
                    <Table.Td>{place(w)}</Table.Td>
                    <Table.Td>
                      {w.status === 'paused' || w.status === 'in_progress'
                        ? t(`reports.control.statuses.${w.status}`)
                        : t('reports.control.statuses.in_progress')}
                    </Table.Td>
                    <Table.Td>{instant(w.startedAt)}</Table.Td>
                    <Table.Td>{instant(w.deadlineAt)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>

      <Stack gap="sm" component="section" data-testid="control-anomalies">
        <Title order={2} size="h4">
          {t('reports.control.anomalies')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('reports.control.anomaliesNote')}
        </Text>
        {data.anomalies.length === 0 ? (
          <Text c="dimmed">{t('reports.control.anomaliesNone')}</Text>
        ) : (
          ANOMALY_KINDS.map((kind) => {
            const found = data.anomalies.filter((a) => a.kind === kind);
            if (found.length === 0) return null;
            return (
              <Paper key={kind} withBorder p="md" data-testid={`anomaly-${kind}`}>
                <Stack gap="xs">
                  <Text fw={600}>
                    {t(`reports.control.kinds.${kind}`)}{' '}
                    <Badge variant="light" color="orange">
                      {found.length}
                    </Badge>
                  </Text>
                  <Alert variant="light" color="gray" p="xs">
                    <Text size="sm">{explain(kind, data.thresholds, t, lang)}</Text>
                  </Alert>
                  <List spacing={4} size="sm">
                    {found.map((a) => (
                      <List.Item
                        key={`${a.kind}-${a.examWorkId}-${a.kind === 'similar_answers' ? a.other.examWorkId : ''}`}
                      >
                        <Text span fw={600}>
                          {person(a)}
                        </Text>
                        {' — '}
                        {names.tests.get(a.subjectTestId) ?? '—'}, {place(a)}, {plainDate(a.testDate)}.{' '}
                        {detail(a, t, lang, person)}
                      </List.Item>
                    ))}
                  </List>
                </Stack>
              </Paper>
            );
          })
        )}
      </Stack>
    </Stack>
  );
}

type T = ReturnType<typeof useReportsT>['t'];
type Lang = ReturnType<typeof useReportsT>['lang'];

function explain(kind: ReportAnomaly['kind'], th: ReportControl['thresholds'], t: T, lang: Lang): string {
  switch (kind) {
    case 'fast_finish':
      return t('reports.control.explain.fast_finish', { share: num(th.fastFinishShare * 100, lang) });
    case 'offline_gap':
      return t('reports.control.explain.offline_gap', { minutes: num(th.offlineGapSeconds / 60, lang) });
    case 'integrity_events':
      return t('reports.control.explain.integrity_events', { count: th.integrityLeaves });
    case 'proctoring':
      return t('reports.control.explain.proctoring');
    case 'similar_answers':
      return t('reports.control.explain.similar_answers', {
        count: th.similarMinSharedWrong,
        share: num(th.similarMinShare * 100, lang),
      });
  }
}

function detail(
  a: ReportAnomaly,
  t: T,
  lang: Lang,
  person: (p: { participantName?: string; code: string }) => string,
): string {
  const time = (seconds: number) => formatDuration(seconds, lang);
  switch (a.kind) {
    case 'fast_finish':
      return t('reports.control.detail.fast_finish', {
        used: time(a.usedSeconds),
        limit: time(a.limitSeconds),
        share: num(a.limitSeconds > 0 ? (a.usedSeconds / a.limitSeconds) * 100 : 0, lang, 0),
      });
    case 'offline_gap':
      return t('reports.control.detail.offline_gap', {
        gaps: a.gaps,
        longest: time(a.longestSeconds),
        total: time(a.totalSeconds),
      });
    case 'integrity_events':
      return t('reports.control.detail.integrity_events', {
        leaves: a.leaves,
        events: Object.entries(a.events)
          .map(
            ([kind, n]) => `${t(`reports.control.events.${KNOWN_EVENTS.has(kind) ? kind : 'other'}`)} — ${n}`,
          )
          .join(', '),
      });
    case 'proctoring':
      return t('reports.control.detail.proctoring', { verdict: a.verdict, at: instant(a.at) });
    case 'similar_answers':
      return t('reports.control.detail.similar_answers', {
        other: person(a.other),
        shared: a.sharedWrong,
        both: a.bothWrong,
        compared: a.compared,
      });
  }
}
