/** The homes of the expert (what waits for grading), the admin (queue, imports, today) and УГНиК. */
import { Anchor, Badge, Button, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { plainDate } from '../../../components/staff-format';
import { formatDisplayDateTime } from '../../../lib/format';
import { homeApi, homeKeys, moscowToday } from '../api/home-api';
import { useHomesT } from '../i18n';
import { Panel, Shortcuts, Stat, Stats, windowText } from './dashboard-parts';

const QUEUE_COLOR: Record<string, string> = {
  queued: 'gray',
  running: 'blue',
  done: 'green',
  failed: 'red',
  cancelled: 'gray',
};

export function ExpertDashboard() {
  const t = useHomesT();
  const queue = useQuery({
    queryKey: [...homeKeys.all('expert'), 'queue'],
    queryFn: ({ signal }) => homeApi.expertQueue(signal),
  });
  const items = queue.data?.items ?? [];
  const open = queue.data ? items.reduce((sum, i) => sum + i.assigned, 0) : undefined;
  const third = queue.data ? items.reduce((sum, i) => sum + i.thirdChecks, 0) : undefined;
  return (
    <Stack gap="lg" data-testid="dashboard-expert">
      <Stats>
        <Stat label={t('homes.stat.toGrade')} value={open} to="/expert/grading" testId="stat-to-grade" />
        <Stat label={t('homes.stat.thirdChecks')} value={third} testId="stat-third" />
      </Stats>
      <Panel title={t('homes.grading.title')} query={queue} testId="home-grading">
        {(data) => {
          const waiting = data.items.filter((i) => i.assigned > 0);
          return (
            <Stack gap="sm">
              {waiting.length === 0 ? (
                <Text c="dimmed">{t('homes.grading.noneOpen')}</Text>
              ) : (
                <Table data-testid="grading-by-test">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('homes.grading.subjectTest')}</Table.Th>
                      <Table.Th>{t('homes.grading.date')}</Table.Th>
                      <Table.Th>{t('homes.grading.open')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {waiting.map((i) => (
                      <Table.Tr key={`${i.subjectTestId}-${i.date}`}>
                        <Table.Td>{i.subjectTestName}</Table.Td>
                        <Table.Td>{plainDate(i.date)}</Table.Td>
                        <Table.Td>{i.assigned}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              )}
              <div>
                <Button component={Link} to="/expert/grading">
                  {t('homes.grading.go')}
                </Button>
              </div>
            </Stack>
          );
        }}
      </Panel>
      <Shortcuts
        links={[
          { to: '/expert/grading', label: t('homes.links.grading') },
          { to: '/expert/profile', label: t('homes.links.profile') },
        ]}
      />
    </Stack>
  );
}

export function AdminDashboard() {
  const t = useHomesT();
  const today = moscowToday();
  const count = (status: 'queued' | 'running' | 'failed') =>
    ({
      queryKey: [...homeKeys.all('admin'), 'queue', status],
      queryFn: ({ signal }: { signal?: AbortSignal }) => homeApi.queue({ status }, 1, signal),
    }) as const;
  const queued = useQuery(count('queued'));
  const running = useQuery(count('running'));
  const failed = useQuery(count('failed'));
  const imports = useQuery({
    queryKey: [...homeKeys.all('admin'), 'imports'],
    queryFn: ({ signal }) => homeApi.queue({ type: 'import' }, 5, signal),
  });
  const todays = useQuery({
    queryKey: [...homeKeys.all('admin'), 'today', today],
    queryFn: ({ signal }) => homeApi.adminTodaysDiagnostics(today, signal),
  });
  return (
    <Stack gap="lg" data-testid="dashboard-admin">
      <Stats>
        <Stat
          label={t('homes.stat.queued')}
          value={queued.data?.total}
          to="/admin/queue"
          testId="stat-queued"
        />
        <Stat
          label={t('homes.stat.running')}
          value={running.data?.total}
          to="/admin/queue"
          testId="stat-running"
        />
        <Stat
          label={t('homes.stat.failed')}
          value={failed.data?.total}
          to="/admin/queue"
          testId="stat-failed"
          alert
        />
        <Stat label={t('homes.stat.todayDiagnostics')} value={todays.data?.total} testId="stat-today" />
      </Stats>
      <Panel title={t('homes.todayDiagnostics')} query={todays} testId="home-today">
        {(page) =>
          page.items.length === 0 ? (
            <Text c="dimmed">{t('homes.noToday')}</Text>
          ) : (
            <Table data-testid="today-diagnostics">
              <Table.Tbody>
                {page.items.map((d) => (
                  <Table.Tr key={d.id}>
                    <Table.Td>
                      <Anchor component={Link} to={`/admin/diagnostics/${d.id}`} fw={500}>
                        {d.name}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{windowText(d.startsAt, d.endsAt, t)}</Table.Td>
                    <Table.Td>{t('homes.participants', { count: d.participantTestCount })}</Table.Td>
                    <Table.Td>{t(`homes.state.${d.status}`)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )
        }
      </Panel>
      <Panel title={t('homes.queue.recentImports')} query={imports} testId="home-imports">
        {(page) =>
          page.items.length === 0 ? (
            <Text c="dimmed">{t('homes.queue.noImports')}</Text>
          ) : (
            <Table data-testid="recent-imports">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('homes.queue.created')}</Table.Th>
                  <Table.Th>{t('homes.queue.status')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {page.items.map((item) => (
                  <Table.Tr key={item.id}>
                    <Table.Td>{formatDisplayDateTime(new Date(item.createdAt))}</Table.Td>
                    <Table.Td>
                      <Badge variant="light" color={QUEUE_COLOR[item.status] ?? 'gray'} tt="none">
                        {t(`homes.queue.statusOf.${item.status}`)}
                      </Badge>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )
        }
      </Panel>
      <Shortcuts
        links={[
          { to: '/admin/diagnostics', label: t('homes.links.diagnostics') },
          { to: '/admin/queue', label: t('homes.links.queue') },
          { to: '/admin/users', label: t('homes.links.users') },
          { to: '/admin/schools', label: t('homes.links.schools') },
          { to: '/admin/content', label: t('homes.links.content') },
          { to: '/admin/roster', label: t('homes.links.roster') },
          { to: '/admin/results', label: t('homes.links.results') },
          { to: '/admin/reports', label: t('homes.links.reports') },
          { to: '/admin/audit', label: t('homes.links.audit') },
        ]}
      />
    </Stack>
  );
}

export function UgnikDashboard() {
  const t = useHomesT();
  const today = moscowToday();
  const list = useQuery({
    queryKey: [...homeKeys.all('ugnik'), 'diagnostics', today],
    queryFn: ({ signal }) => homeApi.ugnikDiagnostics(today, signal),
  });
  return (
    <Stack gap="lg" data-testid="dashboard-ugnik">
      <Stats>
        <Stat
          label={t('homes.stat.ugnikDiagnostics')}
          value={list.data?.total}
          to="/ugnik/diagnostics"
          testId="stat-ugnik-diagnostics"
        />
      </Stats>
      <Panel title={t('homes.ugnik.title')} query={list} testId="home-ugnik-diagnostics">
        {(page) =>
          page.items.length === 0 ? (
            <Text c="dimmed">{t('homes.ugnik.none')}</Text>
          ) : (
            <Table data-testid="ugnik-diagnostics">
              <Table.Tbody>
                {page.items.map((d) => (
                  <Table.Tr key={d.id}>
                    <Table.Td>
                      <Anchor component={Link} to={`/ugnik/diagnostics/${d.id}`} fw={500}>
                        {d.name}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{windowText(d.startsAt, d.endsAt, t)}</Table.Td>
                    <Table.Td>{t('homes.ugnik.schools', { count: d.schoolCount })}</Table.Td>
                    <Table.Td>{t('homes.participants', { count: d.participantCount })}</Table.Td>
                    <Table.Td>{t('homes.ugnik.works', { count: d.examWorkCount })}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )
        }
      </Panel>
      <Shortcuts
        links={[
          { to: '/ugnik/diagnostics', label: t('homes.links.diagnostics') },
          { to: '/ugnik/diagnostics/new', label: t('homes.links.newDiagnostic') },
          { to: '/ugnik/reports', label: t('homes.links.reports') },
        ]}
      />
    </Stack>
  );
}
