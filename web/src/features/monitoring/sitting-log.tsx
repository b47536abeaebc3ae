/** A sitting's event log in a drawer: what happened to one participant's work, oldest first. */
import type { SittingEvent } from '@attesta/contract';
import { Alert, Badge, Drawer, Loader, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { describeApiError } from '../../lib/form-errors';
import { formatDisplayDateTime, formatDuration } from '../../lib/format';
import { currentLanguage } from '../../lib/i18n';
import { monitoringApi } from './api/monitoring-api';
import { useMonitoringT } from './i18n';

const KIND_COLOR: Partial<Record<SittingEvent['kind'], string>> = {
  integrity: 'red',
  proctoring_verdict: 'grape',
  paused: 'yellow',
  deleted: 'red',
  finished: 'green',
  started: 'blue',
  message: 'cyan',
  connection_lost: 'orange',
  connection_restored: 'teal',
  second_device: 'red',
};

export interface SittingRef {
  participantTestId: number;
  name: string;
  subjectTestName: string;
}

export function SittingLog({ sitting, onClose }: { sitting: SittingRef | null; onClose: () => void }) {
  const mt = useMonitoringT();
  return (
    <Drawer
      opened={sitting !== null}
      onClose={onClose}
      position="right"
      size="lg"
      title={sitting ? mt('log.title', { name: sitting.name }) : ''}
      closeButtonProps={{ 'aria-label': mt('log.close') }}
    >
      {sitting && <SittingLogBody sitting={sitting} />}
    </Drawer>
  );
}

function SittingLogBody({ sitting }: { sitting: SittingRef }) {
  const mt = useMonitoringT();
  const { t } = useTranslation();
  const log = useQuery({
    queryKey: ['monitoring', 'sitting', sitting.participantTestId, 'events'],
    queryFn: ({ signal }) => monitoringApi.events(sitting.participantTestId, signal),
    staleTime: 0,
  });
  return (
    <Stack gap="sm" data-testid="sitting-log">
      <Text size="sm" c="dimmed">
        {mt('log.subject', { name: sitting.subjectTestName })}
      </Text>
      {log.isPending ? (
        <Loader size="sm" aria-label={t('app.loading')} />
      ) : log.error ? (
        <Alert color="red" variant="light" role="alert">
          {mt('log.failed', { message: describeApiError(log.error, t) })}
        </Alert>
      ) : log.data.events.length === 0 ? (
        <Text c="dimmed">{mt('log.empty')}</Text>
      ) : (
        <>
          {log.data.truncated && (
            <Text size="sm" c="dimmed">
              {mt('log.truncated', { count: log.data.events.length })}
            </Text>
          )}
          <Table data-testid="sitting-log-table" striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{mt('log.time')}</Table.Th>
                <Table.Th>{mt('log.event')}</Table.Th>
                <Table.Th>{mt('log.who')}</Table.Th>
                <Table.Th>{mt('log.details')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {log.data.events.map((e, i) => (
                <Table.Tr key={i}>
                  <Table.Td>
                    <Text size="sm" ff="monospace">
                      {formatDisplayDateTime(new Date(e.at))}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={KIND_COLOR[e.kind] ?? 'gray'} tt="none">
                      {mt(`log.kind.${e.kind}`)}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    {e.actor === 'staff' && e.actorName ? e.actorName : mt(`log.actor.${e.actor}`)}
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{detailsOf(e, mt)}</Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </>
      )}
    </Stack>
  );
}

/**
 * What an event adds to its kind, in words: minutes, the finish reason, the integrity event, how
 * long the connection was down, the reason.
 */
function detailsOf(e: SittingEvent, mt: ReturnType<typeof useMonitoringT>): string {
  const parts: string[] = [];
  if (e.deltaSeconds !== null)
    parts.push(
      mt('log.minutes', {
        sign: e.deltaSeconds < 0 ? '−' : '+',
        minutes: Math.round(Math.abs(e.deltaSeconds) / 60),
      }),
    );
  if (e.finishReason) parts.push(mt(`log.finish.${e.finishReason}`));
  if (e.integrityKind) parts.push(mt(`log.integrityKind.${e.integrityKind}`));
  if (e.verdict) parts.push(e.verdict);
  if (e.offlineSeconds != null)
    parts.push(mt('log.offline', { time: formatDuration(e.offlineSeconds, currentLanguage()) }));
  if (e.kind === 'second_device') parts.push(mt('log.secondDevice'));
  // The text staff sent to the participant (an event's content, not an error message).
  const staffText = e['message'];
  if (staffText) parts.push(`«${staffText}»`);
  if (e.reason) parts.push(mt('log.reason', { reason: e.reason }));
  return parts.join('; ') || '—';
}
