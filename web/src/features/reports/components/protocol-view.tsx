/** The sitting protocol of one room: a preview of its data and the PDF to print and sign. */
import type { ReportProtocol } from '@attesta/contract';
import { Badge, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { instant, plainDate } from '../../../components/staff-format';
import { protocolFile, protocolReport, reportKeys, type ProtocolRoom } from '../api/reports';
import { DASH } from '../lib/format';
import { useReportsT } from '../locales';
import { DownloadLink, Downloads } from './download-link';
import { ReportEmpty, ReportQueryView } from './report-state';

const ATTENDANCE_COLOR: Record<string, string> = {
  present: 'teal',
  absent: 'orange',
  pending: 'gray',
  annulled: 'red',
};
const FINISH_REASONS = new Set(['manual', 'timeout', 'organizator', 'paper']);

export function ProtocolView({ room }: { room: ProtocolRoom | null }) {
  const { t } = useReportsT();
  const query = useQuery({
    queryKey: reportKeys.report('protocol', { ...room }),
    queryFn: ({ signal }) => protocolReport(room!, signal),
    enabled: room !== null,
  });
  if (!room)
    return (
      <Text c="dimmed" data-testid="protocol-choose">
        {t('reports.protocol.chooseFirst')}
      </Text>
    );
  return (
    <Stack gap="lg">
      <Downloads>
        <DownloadLink file={protocolFile(room)} format="pdf" testId="protocol-pdf" />
      </Downloads>
      <ReportQueryView query={query}>{(data) => <ProtocolPreview data={data} />}</ReportQueryView>
    </Stack>
  );
}

function ProtocolPreview({ data }: { data: ReportProtocol }) {
  const { t } = useReportsT();
  const { room } = data;
  const roomText = [room.schoolName, room.buildingName, room.buildingAddress, room.className]
    .filter(Boolean)
    .join(', ');
  return (
    <Stack gap="md" data-testid="protocol-preview">
      <Paper withBorder p="md">
        <Stack gap={4}>
          <Text fw={600}>
            {data.diagnostic.name} ({data.diagnostic.code})
          </Text>
          <Text size="sm">
            {t('reports.protocol.room')}: {roomText || DASH}
          </Text>
          <Text size="sm">
            {data.organizers.length > 0
              ? t('reports.protocol.organizers', { names: data.organizers.map((o) => o.name).join(', ') })
              : t('reports.protocol.noOrganizers')}
          </Text>
        </Stack>
      </Paper>
      {data.sittings.length === 0 ? (
        <ReportEmpty>{t('reports.protocol.noSittings')}</ReportEmpty>
      ) : (
        data.sittings.map((sitting) => (
          <Stack
            key={`${sitting.subjectTestId}-${sitting.testDate}`}
            gap="xs"
            component="section"
            data-testid="protocol-sitting"
          >
            <Title order={2} size="h4">
              {t('reports.protocol.sitting', {
                name: sitting.subjectTestName,
                date: plainDate(sitting.testDate),
              })}
            </Title>
            <Group gap="lg">
              <Text size="sm">{t('reports.protocol.duration', { minutes: sitting.durationMinutes })}</Text>
              <Text size="sm" data-testid="protocol-presence">
                {t('reports.protocol.presence', { present: sitting.present, absent: sitting.absent })}
              </Text>
              <Text size="sm">
                {t('reports.protocol.span', {
                  start: instant(sitting.startedAt),
                  finish: instant(sitting.finishedAt),
                })}
              </Text>
            </Group>
            <Group gap="lg">
              <Text size="sm">{t('reports.protocol.pauses', { count: sitting.pauses.length })}</Text>
              <Text size="sm">
                {t('reports.protocol.timeChanges', { count: sitting.timeChanges.length })}
              </Text>
              <Text size="sm">{t('reports.protocol.incidents', { count: sitting.incidents.length })}</Text>
            </Group>
            <SittingEvents sitting={sitting} />
            {sitting.participants.length === 0 ? (
              <Text c="dimmed">{t('reports.protocol.noParticipants')}</Text>
            ) : (
              <Table.ScrollContainer minWidth={760}>
                <Table striped withTableBorder data-testid="protocol-participants">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('reports.protocol.participant')}</Table.Th>
                      <Table.Th>{t('reports.protocol.code')}</Table.Th>
                      <Table.Th>{t('reports.protocol.class')}</Table.Th>
                      <Table.Th>{t('reports.protocol.attendance')}</Table.Th>
                      <Table.Th>{t('reports.protocol.started')}</Table.Th>
                      <Table.Th>{t('reports.protocol.finished')}</Table.Th>
                      <Table.Th>{t('reports.protocol.finishedBy')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {sitting.participants.map((p) => (
                      <Table.Tr key={p.participantTestId}>
                        <Table.Td>{p.participantName}</Table.Td>
                        <Table.Td ff="monospace">{p.code}</Table.Td>
                        <Table.Td>{p.className ?? DASH}</Table.Td>
                        <Table.Td>
                          <Badge variant="light" tt="none" color={ATTENDANCE_COLOR[p.attendance] ?? 'gray'}>
                            {t(`reports.protocol.attendanceNames.${p.attendance}`)}
                          </Badge>
                        </Table.Td>
                        <Table.Td>{instant(p.startedAt)}</Table.Td>
                        <Table.Td>{instant(p.finishedAt)}</Table.Td>
                        <Table.Td>
                          {p.finishReason
                            ? t(
                                `reports.protocol.finishReasons.${FINISH_REASONS.has(p.finishReason) ? p.finishReason : 'other'}`,
                              )
                            : DASH}
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
          </Stack>
        ))
      )}
    </Stack>
  );
}

type Sitting = ReportProtocol['sittings'][number];
const INCIDENT_KINDS = new Set([
  'blur',
  'fullscreen_exit',
  'visibility_hidden',
  'offline',
  'connection_lost',
  'second_device',
  'work_deleted',
]);

/** Pauses, time changes and incidents of a sitting in time order, with who acted by name. */
function SittingEvents({ sitting }: { sitting: Sitting }) {
  const { t } = useReportsT();
  const rows = [
    ...sitting.pauses.map((p) => ({
      at: p.startedAt,
      name: p.participantName,
      what: t('reports.protocol.pause'),
      when: p.endedAt ? `${instant(p.startedAt)} – ${instant(p.endedAt)}` : instant(p.startedAt),
      who: p.byStaff
        ? [
            p.by ? t('reports.protocol.pausedBy', { name: p.by }) : null,
            p.resumedBy ? t('reports.protocol.resumedBy', { name: p.resumedBy }) : null,
          ]
            .filter(Boolean)
            .join('; ') || DASH
        : t('reports.protocol.pausedByParticipant'),
      note: p.reason ?? DASH,
    })),
    ...sitting.timeChanges.map((c) => ({
      at: c.at,
      name: c.participantName,
      what: t('reports.protocol.timeChange', {
        sign: c.deltaSeconds < 0 ? '−' : '+',
        minutes: Math.round(Math.abs(c.deltaSeconds) / 60),
      }),
      when: instant(c.at),
      who: c.by ?? DASH,
      note: c.reason ?? DASH,
    })),
    ...sitting.incidents.map((x) => ({
      at: x.firstAt,
      name: x.participantName,
      what: t(
        `reports.protocol.incidentKinds.${
          INCIDENT_KINDS.has(x.kind) ? x.kind : x.kind.startsWith('proctoring') ? 'proctoring' : 'other'
        }`,
      ),
      when:
        x.firstAt === x.lastAt
          ? instant(x.firstAt)
          : `${instant(x.firstAt)} – ${instant(x.lastAt)} (${t('reports.protocol.times', { count: x.count })})`,
      who: x.by ? t('reports.protocol.deletedBy', { name: x.by }) : DASH,
      note: x.reason ?? DASH,
    })),
  ].sort((a, b) => a.at.localeCompare(b.at));
  if (!rows.length) return null;
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table striped withTableBorder data-testid="protocol-events">
        <Table.Caption>{t('reports.protocol.events')}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('reports.protocol.participant')}</Table.Th>
            <Table.Th>{t('reports.protocol.eventWhat')}</Table.Th>
            <Table.Th>{t('reports.protocol.eventWhen')}</Table.Th>
            <Table.Th>{t('reports.protocol.eventWho')}</Table.Th>
            <Table.Th>{t('reports.protocol.eventNote')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((r, i) => (
            <Table.Tr key={i}>
              <Table.Td>{r.name}</Table.Td>
              <Table.Td>{r.what}</Table.Td>
              <Table.Td>{r.when}</Table.Td>
              <Table.Td>{r.who}</Table.Td>
              <Table.Td>{r.note}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
