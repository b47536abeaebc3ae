import type {
  ParticipantTestStatus,
  StaffDiagnostic,
  StaffParticipantTest,
  StaffParticipantTestSortField,
} from '@attesta/contract';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Code,
  Group,
  Loader,
  Modal,
  NativeSelect,
  Stack,
  Text,
} from '@mantine/core';
import { notifications } from '../../../components/lite/notify';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { ApiError } from '../../../lib/api-client';
import { describeApiError } from '../../../lib/form-errors';
import { DataTable, type Column } from '../../../components/data-table/data-table';
import { useBundleT } from '../../../components/data-table/use-bundle-t';
import { useDownload } from '../../../components/data-table/use-download';
import { ConfirmAction } from '../../../components/ui/confirm-action';
import { LoadingButton } from '../../../components/ui/loading-button';
import { PageTitle } from '../../../components/ui/page-title';
import { fullName, instant, PARTICIPANT_STATUS_COLOR, plainDate } from '../../../components/staff-format';
import { staffBundle } from '../../../components/staff-locales';
import { RegisterForm } from './register-form';
import { allClassesQuery } from '../api/classes';
import { diagnosticQuery } from '../api/diagnostics';
import { listParticipantTests, participantCodesPath, updateParticipantTest } from '../api/participant-tests';
import { schoolKeys, type StaffRole } from '../api/shared';
import { ChoiceFilter, SearchFilter } from './list-filters';

const STATUS_COLOR = PARTICIPANT_STATUS_COLOR;
const LIVE = new Set(['active', 'in_progress']);
export const LIVE_REFRESH_MS = 10_000;

interface ParticipantsPageProps {
  role: StaffRole;
  basePath: string;
  /** Extra tools of the role (coordinator: impersonal codes, XML import, planning). */
  tools?: (diagnostic: StaffDiagnostic) => ReactNode;
  /** What the role is told about the diagnostic above its tools (coordinator: too few experts). */
  notice?: (diagnostic: StaffDiagnostic) => ReactNode;
}

/** Participant tests of one diagnostic: live status and codes, registration, absence, code slips. */
export function ParticipantsPage({ role, basePath, tools, notice }: ParticipantsPageProps) {
  const { t } = useBundleT(staffBundle);
  const { t: tApp } = useTranslation();
  const id = Number(useParams().diagnosticId);
  const queryClient = useQueryClient();
  const diagnostic = useQuery(diagnosticQuery(role, id));
  const classes = useQuery(allClassesQuery(role));
  const download = useDownload();
  const [registering, setRegistering] = useState(false);
  const [search, setSearch] = useState('');
  const [classId, setClassId] = useState('');
  const [status, setStatus] = useState<ParticipantTestStatus | ''>('');
  const [printClass, setPrintClass] = useState('');
  const [presence, setPresence] = useState<{ row: StaffParticipantTest; next: 'absent' | 'planned' } | null>(
    null,
  );

  if (diagnostic.isPending) return <Loader aria-label={t('staff.common.open')} />;
  const d = diagnostic.data;
  if (!d) {
    return (
      <Alert color="red" role="alert" data-testid="diagnostic-missing">
        {diagnostic.error instanceof ApiError && diagnostic.error.status === 403
          ? describeApiError(diagnostic.error, tApp)
          : t('staff.common.notFound')}
      </Alert>
    );
  }

  const refresh = () => queryClient.invalidateQueries({ queryKey: schoolKeys.all(role) });

  const who = (p: StaffParticipantTest) =>
    p.isImpersonal ? t('staff.participants.impersonal') : fullName(p);
  // Whether the participant sits the test changes what their code does: asked first, then reported.
  const changePresence = async (row: StaffParticipantTest, next: 'absent' | 'planned') => {
    await updateParticipantTest(role, { id: row.id, status: next });
    notifications.show({
      color: 'green',
      message: t(next === 'absent' ? 'staff.participants.absentDone' : 'staff.participants.plannedDone', {
        name: who(row),
      }),
    });
    await refresh();
  };

  const columns: Column<StaffParticipantTest, StaffParticipantTestSortField>[] = [
    {
      key: 'surname',
      header: t('staff.participants.participant'),
      sortField: 'surname',
      render: (p) =>
        p.isImpersonal ? <Text c="dimmed">{t('staff.participants.impersonal')}</Text> : fullName(p),
      csv: (p) => (p.isImpersonal ? t('staff.participants.impersonal') : fullName(p)),
    },
    {
      key: 'className',
      header: t('staff.participants.class'),
      sortField: 'className',
      render: (p) => p.className ?? '—',
      csv: (p) => p.className,
    },
    {
      key: 'subjectTest',
      header: t('staff.participants.subjectTest'),
      sortField: 'subjectTest',
      render: (p) => p.subjectTestName,
      csv: (p) => p.subjectTestName,
    },
    {
      key: 'testDate',
      header: t('staff.participants.testDate'),
      sortField: 'testDate',
      render: (p) => plainDate(p.testDate),
      csv: (p) => plainDate(p.testDate),
    },
    {
      key: 'status',
      header: t('staff.participants.status'),
      sortField: 'status',
      render: (p) => (
        <Badge color={STATUS_COLOR[p.status] ?? 'gray'} data-testid={`pt-status-${p.id}`}>
          {t(`staff.participants.status_.${p.status}`)}
        </Badge>
      ),
      csv: (p) => t(`staff.participants.status_.${p.status}`),
    },
    {
      key: 'work',
      header: t('staff.participants.work'),
      render: (p) =>
        p.examWork ? (
          <Text size="sm">
            {t('staff.participants.answered', { count: p.examWork.answeredCount })}
            {p.examWork.finishedAt
              ? ''
              : `, ${t('staff.participants.deadline', { time: instant(p.examWork.deadlineAt) })}`}
          </Text>
        ) : (
          '—'
        ),
    },
    {
      key: 'activationCode',
      header: t('staff.participants.activationCode'),
      render: (p) => <Code>{p.activationCode}</Code>,
      csv: (p) => p.activationCode,
    },
    {
      key: 'registrationCode',
      header: t('staff.participants.registrationCode'),
      render: (p) => <Code>{p.registrationCode}</Code>,
      csv: (p) => p.registrationCode,
    },
    {
      key: 'actions',
      header: t('staff.common.actions'),
      render: (p) =>
        p.status === 'planned' ? (
          <Button size="xs" variant="subtle" onClick={() => setPresence({ row: p, next: 'absent' })}>
            {t('staff.participants.markAbsent')}
          </Button>
        ) : p.status === 'absent' ? (
          <Button size="xs" variant="subtle" onClick={() => setPresence({ row: p, next: 'planned' })}>
            {t('staff.participants.markPlanned')}
          </Button>
        ) : null,
    },
  ];

  const classOptions = (classes.data?.items ?? []).map((c) => ({ value: String(c.id), label: c.name }));

  return (
    <Stack gap="lg">
      <Anchor component={Link} to={basePath} size="sm">
        ← {t('staff.participants.back')}
      </Anchor>
      <PageTitle data-testid={`${role}-participants-title`}>
        {t('staff.participants.title', { name: d.name })}
      </PageTitle>
      <Text size="sm" c="dimmed">
        {d.code} · {instant(d.startsAt)} — {instant(d.endsAt)} · {t('staff.participants.liveHint')}
      </Text>
      {notice?.(d)}
      <Group align="flex-end" wrap="wrap">
        <Button onClick={() => setRegistering(true)} data-testid="register-open">
          {t('staff.register.title')}
        </Button>
        <NativeSelect
          label={t('staff.participants.printClass')}
          value={printClass}
          onChange={(e) => setPrintClass(e.currentTarget.value)}
          data={[{ value: '', label: t('staff.participants.allClasses') }, ...classOptions]}
        />
        <LoadingButton
          variant="default"
          data-testid="print-codes"
          onClick={() =>
            download(
              participantCodesPath(role),
              { diagnosticId: d.id, classId: printClass || undefined, format: 'pdf' },
              `codes-${d.code}.pdf`,
            )
          }
        >
          {t('staff.participants.printCodes')}
        </LoadingButton>
        {tools?.(d)}
      </Group>
      <DataTable
        testId="participant-tests"
        queryKey={schoolKeys.participantTests(role)}
        fetchPage={listParticipantTests(role)}
        columns={columns}
        rowKey={(p) => p.id}
        initialSort={{ field: 'className', dir: 'asc' }}
        filter={{
          diagnosticId: d.id,
          search,
          classId: classId ? Number(classId) : undefined,
          status: status || undefined,
        }}
        exportName={`participants-${d.code}`}
        refreshInterval={(items) => (items.some((p) => LIVE.has(p.status)) ? LIVE_REFRESH_MS : 30_000)}
        filters={
          <>
            <SearchFilter value={search} onChange={setSearch} />
            <ChoiceFilter
              label={t('staff.participants.class')}
              value={classId}
              onChange={setClassId}
              options={classOptions}
            />
            <ChoiceFilter
              label={t('staff.participants.status')}
              value={status}
              onChange={setStatus}
              options={(Object.keys(STATUS_COLOR) as ParticipantTestStatus[]).map((s) => ({
                value: s,
                label: t(`staff.participants.status_.${s}`),
              }))}
            />
          </>
        }
      />
      {presence && (
        <ConfirmAction
          title={t(
            presence.next === 'absent' ? 'staff.participants.absentTitle' : 'staff.participants.plannedTitle',
          )}
          question={t(
            presence.next === 'absent'
              ? 'staff.participants.absentConfirm'
              : 'staff.participants.plannedConfirm',
            { name: who(presence.row) },
          )}
          confirmLabel={t(
            presence.next === 'absent' ? 'staff.participants.markAbsent' : 'staff.participants.markPlanned',
          )}
          cancelLabel={t('staff.common.cancel')}
          color={presence.next === 'absent' ? 'orange' : undefined}
          onConfirm={() => changePresence(presence.row, presence.next)}
          onClose={() => setPresence(null)}
        />
      )}
      <Modal
        opened={registering}
        onClose={() => setRegistering(false)}
        title={t('staff.register.title')}
        size="lg"
      >
        {registering && (
          <RegisterForm
            role={role}
            diagnostic={d}
            onDone={(result) => {
              notifications.show({
                color: 'green',
                message: t('staff.register.done', { created: result.created, skipped: result.skipped }),
              });
              setRegistering(false);
              void refresh();
            }}
          />
        )}
      </Modal>
    </Stack>
  );
}
