/**
 * The homes of the school staff: the coordinator's (own school) and the organizator's (assigned
 * rooms) — today's diagnostics with their live rooms, what is coming, and for the coordinator what
 * waits for them (failed queue items, results to publish) and how many sit today.
 */
import type { StaffDiagnostic } from '@attesta/contract';
import { Anchor, Badge, Button, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { homeApi, homeKeys, moscowToday } from '../api/home-api';
import { useHomesT } from '../i18n';
import { Panel, Shortcuts, Stat, Stats, windowText } from './dashboard-parts';

type School = 'coordinator' | 'organizator';

const STATE_COLOR: Record<StaffDiagnostic['status'], string> = {
  planned: 'gray',
  running: 'blue',
  finished: 'teal',
  published: 'green',
};

function DiagnosticTable({
  role,
  items,
  withRoom,
  testId,
}: {
  role: School;
  items: StaffDiagnostic[];
  withRoom: boolean;
  testId: string;
}) {
  const t = useHomesT();
  return (
    <Table data-testid={testId} verticalSpacing="xs">
      <Table.Tbody>
        {items.map((d) => (
          <Table.Tr key={d.id}>
            <Table.Td>
              <Stack gap={2}>
                <Anchor component={Link} to={`/${role}/diagnostics/${d.id}`} fw={500}>
                  {d.name}
                </Anchor>
                <Text size="xs" c="dimmed">
                  {d.subjectTests.map((s) => s.name).join(', ')}
                </Text>
              </Stack>
            </Table.Td>
            <Table.Td>{windowText(d.startsAt, d.endsAt, t)}</Table.Td>
            <Table.Td>{t('homes.participants', { count: d.participantCount })}</Table.Td>
            <Table.Td>
              <Badge variant="light" color={STATE_COLOR[d.status]} tt="none">
                {t(`homes.state.${d.status}`)}
              </Badge>
            </Table.Td>
            {withRoom && (
              <Table.Td ta="right">
                <Button
                  component={Link}
                  to={`/${role}/room?diagnosticId=${d.id}`}
                  size="xs"
                  variant="light"
                  aria-label={t('homes.openRoomOf', { name: d.name })}
                >
                  {t('homes.openRoom')}
                </Button>
              </Table.Td>
            )}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function Attention() {
  const t = useHomesT();
  const failed = useQuery({
    queryKey: [...homeKeys.all('coordinator'), 'queue', 'failed'],
    queryFn: ({ signal }) => homeApi.queue({ status: 'failed' }, 1, signal),
  });
  const unpublished = useQuery({
    queryKey: [...homeKeys.all('coordinator'), 'awaitingPublication'],
    queryFn: ({ signal }) => homeApi.awaitingPublication(signal),
  });
  const pending = failed.isPending || unpublished.isPending;
  const error = failed.error ?? unpublished.error;
  const items = [
    failed.data?.total
      ? { to: '/coordinator/queue', text: t('homes.need.failedQueue', { count: failed.data.total }) }
      : null,
    unpublished.data?.total
      ? {
          to: '/coordinator/results',
          text: t('homes.need.awaitingPublication', { count: unpublished.data.total }),
        }
      : null,
  ].filter((x) => x !== null);
  return (
    <Panel
      title={t('homes.attention')}
      testId="home-attention"
      query={{ data: items, error, isPending: pending }}
    >
      {(list) =>
        list.length === 0 ? (
          <Text c="dimmed">{t('homes.nothingNeedsAttention')}</Text>
        ) : (
          <Stack gap={4} component="ul" m={0} pl="md">
            {list.map((item) => (
              <li key={item.to}>
                <Anchor component={Link} to={item.to} c="red.8">
                  {item.text}
                </Anchor>
              </li>
            ))}
          </Stack>
        )
      }
    </Panel>
  );
}

export function SchoolDashboard({ role }: { role: School }) {
  const t = useHomesT();
  const today = moscowToday();
  const todays = useQuery({
    queryKey: [...homeKeys.all(role), 'today', today],
    queryFn: ({ signal }) => homeApi.todaysDiagnostics(role, today, signal),
  });
  const upcoming = useQuery({
    queryKey: [...homeKeys.all(role), 'upcoming'],
    queryFn: ({ signal }) => homeApi.upcomingDiagnostics(role, signal),
  });
  const sitting = useQuery({
    queryKey: [...homeKeys.all(role), 'participants', today],
    queryFn: ({ signal }) => homeApi.participantsOn(today, signal),
    enabled: role === 'coordinator',
  });
  const failed = useQuery({
    queryKey: [...homeKeys.all('coordinator'), 'queue', 'failed'],
    queryFn: ({ signal }) => homeApi.queue({ status: 'failed' }, 1, signal),
    enabled: role === 'coordinator',
  });
  const links =
    role === 'coordinator'
      ? [
          { to: '/coordinator/diagnostics', label: t('homes.links.diagnostics') },
          { to: '/coordinator/students', label: t('homes.links.students') },
          { to: '/coordinator/room', label: t('homes.links.room'), testId: 'room-link' },
          { to: '/coordinator/queue', label: t('homes.links.queue') },
          { to: '/coordinator/results', label: t('homes.links.results') },
          { to: '/coordinator/reports', label: t('homes.links.reports') },
          { to: '/coordinator/roster', label: t('homes.links.roster') },
        ]
      : [
          { to: '/organizator/diagnostics', label: t('homes.links.diagnostics') },
          { to: '/organizator/students', label: t('homes.links.students') },
          { to: '/organizator/room', label: t('homes.links.room'), testId: 'room-link' },
          { to: '/organizator/protocol', label: t('homes.links.protocol') },
        ];
  return (
    <Stack gap="lg" data-testid={`dashboard-${role}`}>
      {role === 'coordinator' && (
        <Stats>
          <Stat label={t('homes.stat.todayDiagnostics')} value={todays.data?.total} testId="stat-today" />
          <Stat
            label={t('homes.stat.participantsToday')}
            value={sitting.data?.total}
            testId="stat-participants"
          />
          <Stat
            label={t('homes.stat.failedQueue')}
            value={failed.data?.total}
            to="/coordinator/queue"
            testId="stat-failed"
            alert
          />
        </Stats>
      )}
      <Panel title={t('homes.todayDiagnostics')} query={todays} testId="home-today">
        {(page) =>
          page.items.length === 0 ? (
            <Text c="dimmed">{t('homes.noToday')}</Text>
          ) : (
            <DiagnosticTable role={role} items={page.items} withRoom testId="today-diagnostics" />
          )
        }
      </Panel>
      {role === 'coordinator' && <Attention />}
      <Panel title={t('homes.upcoming')} query={upcoming} testId="home-upcoming">
        {(page) =>
          page.items.length === 0 ? (
            <Text c="dimmed">{t('homes.noUpcoming')}</Text>
          ) : (
            <DiagnosticTable role={role} items={page.items} withRoom={false} testId="upcoming-diagnostics" />
          )
        }
      </Panel>
      <Shortcuts links={links} />
    </Stack>
  );
}
