/** The diagnostic page's "Участники": its participant tests, their cards, cleared sessions, impersonal codes. */
import type {
  AdminDiagnosticDetail,
  ParticipantTestListFilter,
  ParticipantTestListItem,
  ParticipantTestSortField,
} from '@attesta/contract';
import { PARTICIPANT_TEST_STATUSES } from '@attesta/contract';
import { Badge, Button, Code, Group, NativeSelect, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '../../../components/lite/notify';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { DataTable, type Column } from '../../../components/data-table/data-table';
import { useFilter } from '../../../components/data-table/use-filter';
import { PARTICIPANT_STATUS_COLOR, plainDate } from '../../../components/staff-format';
import { ConfirmDelete } from '../../../components/ui/confirm-delete';
import { listClasses, orgKeys } from '../api/admin-org-api';
import { clearSession, listParticipantTests, participantTestKeys } from '../api/participant-tests-api';
import { useParticipantStatusLabel } from '../hooks/use-participant-status-label';
import { useAdminT } from '../i18n';
import { ImpersonalCodesModal } from './impersonal-codes-modal';
import { ParticipantCardModal } from './participant-card-modal';

const LIVE = new Set(['active', 'in_progress']);

export function DiagnosticParticipants({ diagnostic: d }: { diagnostic: AdminDiagnosticDetail }) {
  const t = useAdminT();
  const statusLabel = useParticipantStatusLabel();
  const queryClient = useQueryClient();
  const [filter, setFilter] = useFilter({ search: '', schoolId: '', classId: '', status: '' });
  const [card, setCard] = useState<ParticipantTestListItem | null>(null);
  const [clearing, setClearing] = useState<ParticipantTestListItem | null>(null);
  const [creating, setCreating] = useState(false);
  const schoolId = filter.schoolId ? Number(filter.schoolId) : null;
  const classes = useQuery({
    queryKey: orgKeys.classes(schoolId ?? 0),
    queryFn: () => listClasses(schoolId!),
    enabled: schoolId !== null,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: participantTestKeys.all });
  const nameOf = (p: ParticipantTestListItem) =>
    p.isImpersonal || !p.participantName ? t('participants.impersonal') : p.participantName;

  const columns: Column<ParticipantTestListItem, ParticipantTestSortField>[] = [
    {
      key: 'participant',
      header: t('participants.participant'),
      sortField: 'participantName',
      render: (p) =>
        p.isImpersonal || !p.participantName ? (
          <Text c="dimmed" size="sm">
            {t('participants.impersonal')}
          </Text>
        ) : (
          p.participantName
        ),
      csv: nameOf,
    },
    {
      key: 'school',
      header: t('participants.school'),
      sortField: 'schoolName',
      render: (p) => p.schoolName ?? '—',
      csv: (p) => p.schoolName,
    },
    {
      key: 'class',
      header: t('participants.class'),
      sortField: 'className',
      render: (p) => p.className ?? '—',
      csv: (p) => p.className,
    },
    {
      key: 'subjectTest',
      header: t('participants.subjectTest'),
      render: (p) => p.subjectTestName,
      csv: (p) => p.subjectTestName,
    },
    {
      key: 'testDate',
      header: t('participants.testDate'),
      sortField: 'testDate',
      render: (p) => plainDate(p.testDate),
      csv: (p) => plainDate(p.testDate),
    },
    {
      key: 'activationCode',
      header: t('participants.activationCode'),
      render: (p) => <Code>{p.activationCode}</Code>,
      csv: (p) => p.activationCode,
    },
    {
      key: 'status',
      header: t('participants.status'),
      sortField: 'status',
      render: (p) => (
        <Badge color={PARTICIPANT_STATUS_COLOR[p.status] ?? 'gray'} data-testid={`admin-pt-status-${p.id}`}>
          {statusLabel(p.status)}
        </Badge>
      ),
      csv: (p) => statusLabel(p.status),
    },
    {
      key: 'actions',
      header: t('common.actions'),
      render: (p) => (
        <Group gap={4} wrap="nowrap">
          <Button
            size="compact-xs"
            variant="light"
            onClick={() => setCard(p)}
            data-testid={`pt-card-${p.id}`}
          >
            {t('participants.card')}
          </Button>
          {LIVE.has(p.status) && (
            <Button
              size="compact-xs"
              variant="light"
              color="orange"
              onClick={() => setClearing(p)}
              data-testid={`pt-clear-${p.id}`}
            >
              {t('participants.clearSession')}
            </Button>
          )}
        </Group>
      ),
    },
  ];

  const request: ParticipantTestListFilter = {
    diagnosticId: d.id,
    search: filter.search || undefined,
    schoolId: schoolId ?? undefined,
    classId: filter.classId ? Number(filter.classId) : undefined,
    status: (filter.status || undefined) as ParticipantTestListFilter['status'],
  };

  return (
    <>
      <Title order={2} size="h4">
        {t('participants.title')}
      </Title>
      <DataTable
        testId="diagnostic-participants-table"
        caption={t('participants.caption')}
        queryKey={participantTestKeys.list(d.id)}
        fetchPage={listParticipantTests}
        columns={columns}
        rowKey={(p) => p.id}
        initialSort={{ field: 'schoolName', dir: 'asc' }}
        pageSize={20}
        filter={request}
        exportName={`diagnostic-${d.code}-participants`}
        refreshInterval={(items) => (items.some((p) => LIVE.has(p.status)) ? 15_000 : false)}
        actions={
          <Button variant="light" onClick={() => setCreating(true)} data-testid="impersonal-open">
            {t('participants.impersonalCreate')}
          </Button>
        }
        filters={
          <>
            <TextInput
              label={t('participants.search')}
              value={filter.search}
              onChange={(e) => setFilter({ search: e.currentTarget.value })}
            />
            <NativeSelect
              label={t('participants.school')}
              value={filter.schoolId}
              onChange={(e) => setFilter({ schoolId: e.currentTarget.value, classId: '' })}
              data={[
                { value: '', label: t('common.any') },
                ...d.schools.map((s) => ({ value: String(s.id), label: s.name })),
              ]}
            />
            <NativeSelect
              label={t('participants.class')}
              value={filter.classId}
              disabled={schoolId === null}
              onChange={(e) => setFilter({ classId: e.currentTarget.value })}
              data={[
                { value: '', label: t('participants.anyClass') },
                ...(classes.data ?? []).map((c) => ({ value: String(c.id), label: c.name })),
              ]}
            />
            <NativeSelect
              label={t('participants.status')}
              value={filter.status}
              onChange={(e) => setFilter({ status: e.currentTarget.value })}
              data={[
                { value: '', label: t('common.any') },
                ...PARTICIPANT_TEST_STATUSES.map((s) => ({ value: s, label: statusLabel(s) })),
              ]}
            />
          </>
        }
      />
      {card && (
        <ParticipantCardModal
          id={card.id}
          name={nameOf(card)}
          window={{ startsAt: d.startsAt, endsAt: d.endsAt }}
          onClose={() => setCard(null)}
          onChanged={refresh}
        />
      )}
      {clearing && (
        <ConfirmDelete
          title={t('participants.clearSessionTitle')}
          question={t('participants.clearSessionQuestion', { name: nameOf(clearing) })}
          confirmLabel={t('participants.clearSessionConfirm')}
          cancelLabel={t('common.cancel')}
          onConfirm={async () => {
            const result = await clearSession(clearing.id);
            notifications.show({
              color: 'green',
              message: t('participants.clearSessionDone', { count: result.sessionsEnded }),
            });
            await refresh();
          }}
          onClose={() => setClearing(null)}
        />
      )}
      {creating && (
        <ImpersonalCodesModal
          diagnostic={d}
          onClose={() => setCreating(false)}
          onCreated={() => void refresh()}
        />
      )}
    </>
  );
}
