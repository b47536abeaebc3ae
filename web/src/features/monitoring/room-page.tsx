/**
 * The live room view of an organizator (assigned classes) or a coordinator (own school): choose a
 * diagnostic and a class, watch every sitting in real time — a row per participant and subject
 * test, so a participant sitting two tests has two rows, each with its subject — and act on the
 * selected ones. `LiveRoom` with `readOnly` is the ugnik's supervision view of the same room
 * (docs/ugnik.md): no selection, actions, messages or codes; the live rows and the event log stay.
 */
import type { RoomRow, RoomStatus } from '@attesta/contract';
import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  Modal,
  Progress,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { notifications } from '../../components/lite/notify';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { PageTitle } from '../../components/ui/page-title';
import { useMonitoringT } from './i18n';
import { monitoringApi, type RoomRef, type RoomRole } from './api/monitoring-api';
import { useRoomStream } from './hooks/use-room-stream';
import { SittingLog, type SittingRef } from './sitting-log';
import { MessageDialog, type MessageTarget } from './message-dialog';
import { AccommodationsWords } from '../../components/accommodations/accommodations-mark';
import { useTranslation } from 'react-i18next';
import { describeApiError } from '../../lib/form-errors';

type Action = 'pause' | 'resume' | 'extend' | 'logout' | 'clearSession' | 'restore';

const STATUS_COLOR: Record<RoomStatus, string> = {
  not_started: 'gray',
  in_progress: 'blue',
  paused: 'yellow',
  finished: 'green',
  absent: 'red',
};
const SHOWN_KINDS = ['blur', 'fullscreen_exit', 'visibility_hidden', 'offline'] as const;

/** 125 → "02:05", 3725 → "1:02:05". */
export function formatClock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const pad = (n: number) => String(n).padStart(2, '0');
  const h = Math.floor(s / 3600);
  const rest = `${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
  return h > 0 ? `${h}:${rest}` : rest;
}

const timeOf = (iso: string | null) =>
  iso
    ? new Date(iso).toLocaleTimeString('ru-RU', { hour: '2-digit', minute: '2-digit', second: '2-digit' })
    : null;

/** Seconds left as the row's clock shows them now (ticking on the server's time). */
export function secondsLeftOf(row: RoomRow, nowMs: number, offsetMs: number): number | null {
  if (row.status === 'finished') return 0;
  if (row.status !== 'in_progress' || !row.deadlineAt) return row.secondsLeft;
  return Math.max(0, Math.floor((Date.parse(row.deadlineAt) - (nowMs + offsetMs)) / 1000));
}

/** Which selected rows an action applies to, and with which id. */
function targets(action: Action, rows: RoomRow[]): RoomRow[] {
  switch (action) {
    case 'pause':
      return rows.filter((r) => r.examWorkId !== null && r.status === 'in_progress');
    case 'resume':
      return rows.filter((r) => r.examWorkId !== null && r.status === 'paused');
    case 'extend':
      return rows.filter((r) => r.examWorkId !== null && r.status !== 'finished');
    case 'restore':
      return rows.filter((r) => r.deletedExamWorkId !== null);
    default:
      return rows;
  }
}

function useNow(intervalMs = 1000) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(id);
  }, [intervalMs]);
  return now;
}

export function RoomPage({ role }: { role: RoomRole }) {
  const mt = useMonitoringT();
  const diagnostics = useQuery({
    queryKey: ['monitoring', role, 'diagnostics'],
    queryFn: () => monitoringApi.diagnostics(role),
  });
  const classes = useQuery({
    queryKey: ['monitoring', role, 'classes'],
    queryFn: () => monitoringApi.classes(role),
  });
  // The room is in the address (?diagnosticId=&classId=), so it can be bookmarked and reloaded.
  const [params, setParams] = useSearchParams();
  const diagnosticId = params.get('diagnosticId');
  const classId = params.get('classId');
  const choose = useCallback(
    (key: 'diagnosticId' | 'classId', value: string | null) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          if (value) next.set(key, value);
          else next.delete(key);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );

  // One choice only: take it, so the room opens at once.
  useEffect(() => {
    if (!diagnosticId && diagnostics.data?.length) choose('diagnosticId', String(diagnostics.data[0]!.id));
  }, [diagnostics.data, diagnosticId, choose]);
  useEffect(() => {
    if (!classId && classes.data?.length) choose('classId', String(classes.data[0]!.id));
  }, [classes.data, classId, choose]);

  const ref = useMemo<RoomRef | null>(
    () => (diagnosticId && classId ? { diagnosticId: Number(diagnosticId), classId: Number(classId) } : null),
    [diagnosticId, classId],
  );

  return (
    <Stack gap="md">
      <PageTitle>{mt('title')}</PageTitle>
      <Group align="flex-end">
        <Select
          label={mt('diagnostic')}
          placeholder={mt('chooseDiagnostic')}
          data-testid="room-diagnostic"
          data={(diagnostics.data ?? []).map((d) => ({
            value: String(d.id),
            label: `${d.name} (${d.code})`,
          }))}
          value={diagnosticId}
          onChange={(v) => choose('diagnosticId', v)}
          searchable
          w={360}
          nothingFoundMessage={mt('noDiagnostics')}
        />
        <Select
          label={mt('class')}
          placeholder={mt('chooseClass')}
          data-testid="room-class"
          data={(classes.data ?? []).map((c) => ({ value: String(c.id), label: c.name }))}
          value={classId}
          onChange={(v) => choose('classId', v)}
          searchable
          w={200}
        />
      </Group>
      {diagnostics.data && diagnostics.data.length === 0 && <Text c="dimmed">{mt('noDiagnostics')}</Text>}
      {ref && (
        <LiveRoom
          key={`${ref.diagnosticId}:${ref.classId}`}
          room={ref}
          canPause={role === 'organizator'}
          paperFormPath={(target) =>
            `/${role}/room/paper/${'examWorkId' in target ? target.examWorkId : `sitting/${target.participantTestId}`}?diagnosticId=${ref.diagnosticId}&classId=${ref.classId}`
          }
        />
      )}
    </Stack>
  );
}

/**
 * One room, live. `readOnly` (the ugnik): the rows and the event log only — no selection, no action
 * or message buttons, no codes column (the ugnik's rows carry no codes anyway).
 */
export function LiveRoom({
  room,
  canPause = false,
  readOnly = false,
  paperFormPath,
}: {
  room: RoomRef;
  canPause?: boolean;
  readOnly?: boolean;
  /**
   * Where a sitting's paper answer form is keyed in (staff who may key forms in): a finished work's,
   * or the form of a participant who never opened the work online.
   */
  paperFormPath?: (target: PaperTarget) => string;
}) {
  const mt = useMonitoringT();
  const { rows, offsetMs, connected, loaded } = useRoomStream(room);
  const now = useNow();
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [action, setAction] = useState<Action | null>(null);
  const [logOf, setLogOf] = useState<SittingRef | null>(null);
  const [messageTo, setMessageTo] = useState<MessageTarget | null>(null);
  const chosen = rows.filter((r) => selected.has(r.participantTestId));
  const allChosen = rows.length > 0 && chosen.length === rows.length;

  const toggle = (id: number) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const button = (a: Action, testId?: string) => (
    <Button
      variant={a === 'pause' || a === 'resume' || a === 'extend' ? 'filled' : 'light'}
      disabled={chosen.length === 0}
      onClick={() => setAction(a)}
      data-testid={testId}
    >
      {mt(`actions.${a}`)}
    </Button>
  );

  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Group gap="xs">
          <Badge color={connected ? 'green' : 'orange'} variant="dot" data-testid="room-connection">
            {connected ? mt('live') : mt('reconnecting')}
          </Badge>
          {!readOnly && (
            <Text size="sm" c="dimmed" aria-live="polite">
              {mt('selected', { count: chosen.length })}
            </Text>
          )}
        </Group>
        {!readOnly && (
          <Group gap="xs">
            {canPause && button('pause', 'room-pause')}
            {canPause && button('resume', 'room-resume')}
            {button('extend', 'room-extend')}
            {button('logout', 'room-logout')}
            {button('clearSession', 'room-clear-session')}
            {button('restore', 'room-restore')}
          </Group>
        )}
      </Group>
      {readOnly ? (
        <Text size="xs" c="dimmed" data-testid="room-read-only">
          {mt('readOnly')}
        </Text>
      ) : (
        !canPause && (
          <Text size="xs" c="dimmed">
            {mt('coordinatorNoPause')}
          </Text>
        )
      )}
      {!readOnly && paperFormPath && rows.length > 0 && (
        <PaperFormByCode rows={rows} pathOf={paperFormPath} />
      )}
      {loaded && rows.length === 0 ? (
        <Text c="dimmed">{mt('empty')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={900}>
          <Table striped highlightOnHover data-testid="room-table" aria-busy={!loaded}>
            <Table.Thead>
              <Table.Tr>
                {!readOnly && (
                  <Table.Th>
                    <Checkbox
                      aria-label={mt('selectAll')}
                      data-testid="room-select-all"
                      checked={allChosen}
                      indeterminate={chosen.length > 0 && !allChosen}
                      onChange={() =>
                        setSelected(allChosen ? new Set() : new Set(rows.map((r) => r.participantTestId)))
                      }
                    />
                  </Table.Th>
                )}
                <Table.Th>{mt('participant')}</Table.Th>
                <Table.Th>{mt('subjectTest')}</Table.Th>
                <Table.Th>{mt('accommodations')}</Table.Th>
                <Table.Th>{mt('state')}</Table.Th>
                <Table.Th>{mt('progress')}</Table.Th>
                <Table.Th>{mt('timeLeft')}</Table.Th>
                <Table.Th>{mt('lastSave')}</Table.Th>
                <Table.Th>{mt('connection')}</Table.Th>
                <Table.Th>{mt('integrity')}</Table.Th>
                {!readOnly && <Table.Th>{mt('code')}</Table.Th>}
                <Table.Th>
                  <VisuallyHidden>{mt('log.event')}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => (
                <RoomTableRow
                  key={row.participantTestId}
                  row={row}
                  readOnly={readOnly}
                  checked={selected.has(row.participantTestId)}
                  onToggle={() => toggle(row.participantTestId)}
                  secondsLeft={secondsLeftOf(row, now, offsetMs)}
                  paperFormPath={
                    !readOnly && paperFormPath && paperTargetOf(row)
                      ? paperFormPath(paperTargetOf(row)!)
                      : null
                  }
                  onOpenLog={() =>
                    setLogOf({
                      participantTestId: row.participantTestId,
                      name: row.name ?? mt('participantNo', { id: row.participantTestId }),
                      subjectTestName: row.subjectTestName,
                    })
                  }
                  onMessage={() =>
                    setMessageTo({
                      participantTestId: row.participantTestId,
                      name: row.name ?? mt('participantNo', { id: row.participantTestId }),
                    })
                  }
                />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {action && <ActionDialog action={action} rows={chosen} onClose={() => setAction(null)} />}
      <SittingLog sitting={logOf} onClose={() => setLogOf(null)} />
      {messageTo && <MessageDialog target={messageTo} onClose={() => setMessageTo(null)} />}
    </Stack>
  );
}

function RoomTableRow({
  row,
  readOnly,
  checked,
  onToggle,
  secondsLeft,
  onOpenLog,
  onMessage,
  paperFormPath,
}: {
  row: RoomRow;
  readOnly: boolean;
  checked: boolean;
  onToggle: () => void;
  secondsLeft: number | null;
  onOpenLog: () => void;
  onMessage: () => void;
  paperFormPath: string | null;
}) {
  const mt = useMonitoringT();
  const id = row.participantTestId;
  const name = row.name ?? mt('participantNo', { id });
  const total = row.total ?? 0;
  return (
    <Table.Tr data-testid={`room-row-${id}`} bg={checked ? 'var(--mantine-color-blue-0)' : undefined}>
      {!readOnly && (
        <Table.Td>
          <Checkbox
            aria-label={mt('selectRow', { name })}
            data-testid={`room-select-${id}`}
            checked={checked}
            onChange={onToggle}
          />
        </Table.Td>
      )}
      <Table.Td>
        <Text size="sm" fw={500}>
          {name}
        </Text>
        {row.className && (
          <Text size="xs" c="dimmed">
            {row.className}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <Text size="sm" data-testid={`room-subject-${id}`}>
          {row.subjectTestName}
        </Text>
      </Table.Td>
      <Table.Td>
        <AccommodationsWords id={id} accommodations={row.accommodations} />
      </Table.Td>
      <Table.Td>
        <Badge color={STATUS_COLOR[row.status]} data-testid={`room-status-${id}`} data-status={row.status}>
          {mt(`status.${row.status}`)}
        </Badge>
        {row.status === 'paused' && (row.pausedByStaff || row.pauseReason) && (
          <Text size="xs" c="dimmed">
            {[row.pausedByStaff ? mt('byStaff') : null, row.pauseReason].filter(Boolean).join(': ')}
          </Text>
        )}
      </Table.Td>
      <Table.Td miw={120}>
        <Text size="sm" data-testid={`room-answered-${id}`} data-answered={row.answered}>
          {row.answered} / {row.total ?? '—'}
        </Text>
        <Progress
          value={total > 0 ? (row.answered / total) * 100 : 0}
          size="sm"
          aria-label={`${row.answered} / ${row.total ?? '—'}`}
        />
      </Table.Td>
      <Table.Td>
        <Text size="sm" ff="monospace" data-testid={`room-time-${id}`} data-seconds={secondsLeft ?? ''}>
          {secondsLeft === null ? mt('never') : formatClock(secondsLeft)}
        </Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{timeOf(row.lastSaveAt) ?? mt('never')}</Text>
      </Table.Td>
      <Table.Td>
        {row.online ? (
          <Badge color="green" variant="light">
            {mt('online')}
          </Badge>
        ) : row.offlineSince ? (
          <Text size="xs" c="orange">
            {mt('offlineSince', { time: timeOf(row.offlineSince) })}
          </Text>
        ) : (
          <Text size="sm">{mt('never')}</Text>
        )}
      </Table.Td>
      <Table.Td>
        <Group gap={4}>
          {SHOWN_KINDS.filter((k) => (row.integrity[k] ?? 0) > 0).map((k) => (
            <Badge key={k} color="red" variant="light" title={mt(`kinds.${k}`)}>
              {mt(`kinds.${k}`)}: {row.integrity[k]}
            </Badge>
          ))}
          {row.proctoringVerdict ? (
            <Badge color="grape" variant="light" title={mt('proctoringVerdict')}>
              {mt('proctoringVerdict')}: {row.proctoringVerdict}
            </Badge>
          ) : null}
        </Group>
      </Table.Td>
      {!readOnly && (
        <Table.Td>
          <Text size="sm" ff="monospace">
            {row.activationCode}
          </Text>
        </Table.Td>
      )}
      <Table.Td>
        <Button
          size="xs"
          variant="subtle"
          onClick={onOpenLog}
          aria-label={mt('log.openOf', { name })}
          data-testid={`room-log-${id}`}
        >
          {mt('log.open')}
        </Button>
        {!readOnly && (
          <Button
            size="xs"
            variant="subtle"
            onClick={onMessage}
            aria-label={mt('message.openOf', { name })}
            data-testid={`room-message-${id}`}
          >
            {mt('message.open')}
          </Button>
        )}
        {paperFormPath && (
          <Button
            component={Link}
            to={paperFormPath}
            size="xs"
            variant="subtle"
            aria-label={mt(row.examWorkId === null ? 'paper.openPaperOnlyOf' : 'paper.openOf', { name })}
            data-testid={`room-paper-${id}`}
          >
            {mt('paper.open')}
          </Button>
        )}
      </Table.Td>
    </Table.Tr>
  );
}

/** A paper form to key in for a row: a finished work's, or a sitting never opened online. */
export type PaperTarget = { examWorkId: number } | { participantTestId: number };

function paperTargetOf(row: RoomRow): PaperTarget | null {
  if (row.examWorkId !== null) return row.status === 'finished' ? { examWorkId: row.examWorkId } : null;
  return row.status === 'not_started' || row.status === 'absent'
    ? { participantTestId: row.participantTestId }
    : null;
}

/**
 * Finds the sitting of a paper form by the registration code printed on it and opens its form —
 * a sitting never opened online too (its form creates the work); says why not when the code is
 * not of this room or its work is still open online.
 */
function PaperFormByCode({ rows, pathOf }: { rows: RoomRow[]; pathOf: (target: PaperTarget) => string }) {
  const mt = useMonitoringT();
  const navigate = useNavigate();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const wanted = code.trim().toUpperCase();
    if (!wanted) return;
    const row = rows.find((r) => r.registrationCode?.toUpperCase() === wanted);
    if (!row) return setError(mt('paper.notFound'));
    const target = paperTargetOf(row);
    if (!target) return setError(mt('paper.notFinished'));
    void navigate(pathOf(target));
  };
  return (
    <form onSubmit={submit} noValidate aria-label={mt('paper.title')}>
      <Group align="flex-end" gap="xs">
        <TextInput
          label={mt('paper.byCode')}
          description={mt('paper.byCodeHint')}
          value={code}
          onChange={(e) => {
            setCode(e.currentTarget.value);
            setError(null);
          }}
          error={error}
          autoComplete="off"
          data-testid="paper-code-input"
          w={300}
          maw="100%"
        />
        <Button type="submit" variant="light" data-testid="paper-code-submit">
          {mt('paper.find')}
        </Button>
      </Group>
    </form>
  );
}

function ActionDialog({ action, rows, onClose }: { action: Action; rows: RoomRow[]; onClose: () => void }) {
  const mt = useMonitoringT();
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const [minutes, setMinutes] = useState('10');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const applicable = targets(action, rows);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const why = reason.trim();
    if (!why) return setError(mt('reasonRequired'));
    const delta = Number(minutes);
    if (action === 'extend' && (!Number.isInteger(delta) || delta === 0))
      return setError(mt('minutesInvalid'));
    if (applicable.length === 0) return setError(mt('nothingApplicable'));
    setBusy(true);
    try {
      const works = applicable.map((r) => r.examWorkId!);
      if (action === 'pause' || action === 'resume')
        await monitoringApi.pause(works, action === 'pause', why);
      else if (action === 'extend') await monitoringApi.changeTime(works, delta, why);
      else if (action === 'logout')
        await Promise.all(
          applicable.flatMap((r) => (r.activationCode ? [monitoringApi.logout(r.activationCode, why)] : [])),
        );
      else if (action === 'clearSession')
        await Promise.all(applicable.map((r) => monitoringApi.clearSession(r.participantTestId, why)));
      else await Promise.all(applicable.map((r) => monitoringApi.restore(r.deletedExamWorkId!, why)));
      notifications.show({ color: 'green', message: mt('done', { count: applicable.length }) });
      onClose();
    } catch (err) {
      const message = describeApiError(err, t);
      notifications.show({ color: 'red', message: mt('failed', { message }) });
      setError(mt('failed', { message }));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened onClose={onClose} title={mt(`actions.${action}`)} trapFocus returnFocus>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Stack gap="sm">
          <Text size="sm">{mt(`confirm.${action}`, { count: applicable.length })}</Text>
          {action === 'extend' && (
            <TextInput
              label={mt('minutes')}
              description={mt('minutesHint')}
              inputMode="numeric"
              value={minutes}
              onChange={(e) => setMinutes(e.currentTarget.value)}
              data-testid="minutes-input"
              required
            />
          )}
          <TextInput
            label={mt('reason')}
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
            data-testid="reason-input"
            required
            data-autofocus
            maxLength={500}
          />
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {mt('actions.cancel')}
            </Button>
            <Button
              type="submit"
              loading={busy}
              data-testid="confirm-action"
              className={busy ? 'is-loading' : undefined}
            >
              {mt('actions.confirm')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
