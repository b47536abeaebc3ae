/**
 * Keying in a paper answer form (бланк ответов). An organizator or coordinator opens a sitting of
 * their room — from its row, or by the registration code printed on the form — checks that code,
 * sees every task as the participant saw it with the answer stored now and where it came from
 * (online or a form), types what the form says and saves the changed tasks at once:
 * PUT saveanswers?registrationCode=… (stored as answers from a paper form, audited, the result
 * computed again). A file task takes a scan or photo of the form's page. Replacing answers given
 * online asks first; leaving with unsaved changes asks too.
 *
 * A participant who never opened the work online (`…/room/paper/sitting/:participantTestId`): the
 * organizer picks the variant printed on the booklet, keys the form and confirms; the save creates
 * the work from the form and finishes it, and the page becomes that work's form (scans go there).
 */
import {
  sameJson,
  type ParticipantTask,
  type PaperSitting,
  type SavedAnswer,
  type TaskAnswerType,
} from '@attesta/contract';
import { Alert, Anchor, Badge, Button, Card, Group, Loader, Modal, Select, Stack, Text } from '@mantine/core';
import { notifications } from '../../components/lite/notify';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import {
  Link,
  Navigate,
  useBlocker,
  useLocation,
  useNavigate,
  useParams,
  useSearchParams,
} from 'react-router';
import { AnswerInput, showsOwnHtml } from '../../components/answers/answer-input';
import { emptyValue, isAnswered } from '../../components/answers/answer-value';
import type { UploadedFile } from '../../components/answers/file-input';
import { RichHtml } from '../../components/answers/rich-html';
import { LoadingButton } from '../../components/ui/loading-button';
import { PageTitle } from '../../components/ui/page-title';
import { ApiError } from '../../lib/api-client';
import { useTranslation } from 'react-i18next';
import { describeApiError } from '../../lib/form-errors';
import { monitoringApi, type RoomRole } from './api/monitoring-api';
import { useMonitoringT } from './i18n';

type Task = ParticipantTask;
type Source = 'online' | 'blank' | 'none';

/** Unchanged as the server would see it: key order does not matter, nothing equals empty. */
const sameAnswer = (type: TaskAnswerType, a: unknown, b: unknown) =>
  sameJson(a ?? emptyValue(type), b ?? emptyValue(type));

const sourceOf = (task: Task, saved: SavedAnswer | undefined): Source =>
  !saved || !isAnswered(task.answerType, saved.value)
    ? 'none'
    : saved.answerMode === 'blank'
      ? 'blank'
      : 'online';

const SOURCE_COLOR: Record<Source, string> = { online: 'blue', blank: 'grape', none: 'gray' };

/** The room the page came from, kept in its address so «back» returns to it. */
function useRoomBack(role: RoomRole): string {
  const [params] = useSearchParams();
  const room = new URLSearchParams();
  for (const key of ['diagnosticId', 'classId'] as const) {
    const value = params.get(key);
    if (value) room.set(key, value);
  }
  const query = room.toString();
  return `/${role}/room${query ? `?${query}` : ''}`;
}

export function PaperFormPage({ role }: { role: RoomRole }) {
  const mt = useMonitoringT();
  const { t } = useTranslation();
  const workId = Number(useParams().workId);
  const back = useRoomBack(role);
  const valid = Number.isInteger(workId) && workId > 0;
  const sitting = useQuery({
    queryKey: ['paper', workId, 'sitting'],
    queryFn: () => monitoringApi.sittingOfWork(workId),
    enabled: valid,
    retry: false,
  });
  const variant = useQuery({
    queryKey: ['paper', workId, 'variant'],
    queryFn: () => monitoringApi.variantOfWork(workId),
    enabled: valid,
    retry: false,
  });
  const work = useQuery({
    queryKey: ['paper', workId, 'work'],
    queryFn: () => monitoringApi.workState(workId),
    enabled: valid,
    retry: false,
  });
  const error = sitting.error ?? variant.error ?? work.error;

  return (
    <Stack gap="md">
      <Anchor component={Link} to={back} size="sm" data-testid="paper-back">
        ← {mt('paper.back')}
      </Anchor>
      <PageTitle>{mt('paper.title')}</PageTitle>
      {!valid ? (
        <Alert color="red" role="alert">
          {mt('paper.badAddress')}
        </Alert>
      ) : error ? (
        <Alert color="red" role="alert" data-testid="paper-load-error">
          {error instanceof ApiError && error.code === 'work_not_finished'
            ? mt('paper.notFinished')
            : mt('paper.loadFailed', { message: describeApiError(error, t) })}
        </Alert>
      ) : !sitting.data || !variant.data || !work.data ? (
        <Loader aria-label={mt('paper.title')} />
      ) : (
        <PaperForm
          target={{ kind: 'work', workId }}
          facts={{
            participantName: variant.data.participant?.name ?? '—',
            subjectTestName: variant.data.subjectTestName,
            variantNumber: variant.data.number,
            registrationCode: sitting.data.registrationCode,
          }}
          tasks={variant.data.tasks}
          saved={work.data.answers ?? []}
        />
      )}
    </Stack>
  );
}

/**
 * `…/room/paper/sitting/:participantTestId`: the paper form of a sitting by its participant test.
 * A finished work goes to its own form; one still open online is named; without a work the form is
 * keyed into the variant printed on the booklet and the save creates the work.
 */
export function PaperSittingPage({ role }: { role: RoomRole }) {
  const mt = useMonitoringT();
  const { t } = useTranslation();
  const participantTestId = Number(useParams().participantTestId);
  const back = useRoomBack(role);
  const { search } = useLocation();
  const navigate = useNavigate();
  const valid = Number.isInteger(participantTestId) && participantTestId > 0;
  const [picked, setPicked] = useState<number | null>(null);
  const sitting = useQuery({
    queryKey: ['paper-sitting', participantTestId],
    queryFn: () => monitoringApi.paperSitting(participantTestId),
    enabled: valid,
    retry: false,
  });
  const data = sitting.data;
  const only = data?.variants.length === 1 ? data.variants[0]!.id : null;
  const variantId = picked ?? only;
  const variant = useQuery({
    queryKey: ['paper-sitting', participantTestId, 'variant', variantId],
    queryFn: () => monitoringApi.paperSitting(participantTestId, variantId!),
    enabled: variantId !== null && data?.work === null,
    retry: false,
  });
  const workPath = (examWorkId: number) => `/${role}/room/paper/${examWorkId}${search}`;

  if (data?.work?.finished) return <Navigate to={workPath(data.work.examWorkId)} replace />;
  const error = sitting.error ?? variant.error;
  return (
    <Stack gap="md">
      <Anchor component={Link} to={back} size="sm" data-testid="paper-back">
        ← {mt('paper.back')}
      </Anchor>
      <PageTitle>{mt('paper.title')}</PageTitle>
      {!valid ? (
        <Alert color="red" role="alert">
          {mt('paper.badAddress')}
        </Alert>
      ) : error ? (
        <Alert color="red" role="alert" data-testid="paper-load-error">
          {mt('paper.loadFailed', { message: describeApiError(error, t) })}
        </Alert>
      ) : !data ? (
        <Loader aria-label={mt('paper.title')} />
      ) : data.work ? (
        <Alert color="orange" role="alert" data-testid="paper-load-error">
          {mt('paper.notFinished')}
        </Alert>
      ) : (
        <PaperOnlyForm
          sitting={data}
          variantId={variantId}
          onPick={setPicked}
          variant={variant.data?.variant ?? null}
          loading={variant.isFetching}
          onCreated={(examWorkId) => void navigate(workPath(examWorkId), { replace: true })}
        />
      )}
    </Stack>
  );
}

function PaperOnlyForm({
  sitting,
  variantId,
  onPick,
  variant,
  loading,
  onCreated,
}: {
  sitting: PaperSitting;
  variantId: number | null;
  onPick: (id: number | null) => void;
  variant: PaperSitting['variant'];
  loading: boolean;
  onCreated: (examWorkId: number) => void;
}) {
  const mt = useMonitoringT();
  const number = sitting.variants.find((v) => v.id === variantId)?.number ?? null;
  return (
    <Stack gap="md">
      <Alert color="blue" data-testid="paper-only-intro">
        {mt('paper.paperOnly', { name: sitting.participantName })}
      </Alert>
      {sitting.variants.length === 0 ? (
        <Alert color="orange" role="alert">
          {mt('paper.noVariants')}
        </Alert>
      ) : (
        <Select
          label={mt('paper.variantPick')}
          description={mt('paper.variantPickHint')}
          placeholder={mt('paper.variantPlaceholder')}
          data={sitting.variants.map((v) => ({
            value: String(v.id),
            label: mt('paper.variantN', { n: v.number }),
          }))}
          value={variantId === null ? null : String(variantId)}
          onChange={(v) => onPick(v ? Number(v) : null)}
          allowDeselect={false}
          w={320}
          maw="100%"
          data-testid="paper-variant"
        />
      )}
      {loading && !variant && <Loader size="sm" aria-label={mt('paper.title')} />}
      {variant && variantId !== null && number !== null && (
        <PaperForm
          key={variantId}
          target={{ kind: 'paper', variantId, onCreated }}
          facts={{
            participantName: sitting.participantName || '—',
            subjectTestName: sitting.subjectTestName,
            variantNumber: number,
            registrationCode: sitting.registrationCode,
          }}
          tasks={variant.tasks}
          saved={[]}
        />
      )}
    </Stack>
  );
}

/** Where a form goes: an existing work, or (a participant never online) a work the save creates. */
type FormTarget =
  | { kind: 'work'; workId: number }
  | { kind: 'paper'; variantId: number; onCreated: (examWorkId: number) => void };

interface FormFacts {
  participantName: string;
  subjectTestName: string;
  variantNumber: number;
  registrationCode: string;
}

function PaperForm({
  target,
  facts,
  tasks: given,
  saved,
}: {
  target: FormTarget;
  facts: FormFacts;
  tasks: readonly Task[];
  saved: SavedAnswer[];
}) {
  const mt = useMonitoringT();
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { registrationCode } = facts;
  const creates = target.kind === 'paper';
  const stored = useMemo(() => new Map(saved.map((a) => [a.variantTaskId, a])), [saved]);
  const tasks = useMemo(() => [...given].sort((a, b) => a.position - b.position), [given]);
  const [drafts, setDrafts] = useState<Record<number, unknown>>({});
  const [knownFiles, setKnownFiles] = useState<Record<number, UploadedFile>>({});
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<number | null>(null);

  const changed = tasks.filter(
    (task) =>
      task.variantTaskId in drafts &&
      task.answerType !== 'file' &&
      !sameAnswer(task.answerType, drafts[task.variantTaskId], stored.get(task.variantTaskId)?.value),
  );
  const replacesOnline = changed.filter((t) => sourceOf(t, stored.get(t.variantTaskId)) === 'online');
  const blocker = useBlocker(changed.length > 0 && !busy && created === null);
  // The created work's own form takes over once nothing holds the move any more (once).
  const handedOver = useRef(false);
  useEffect(() => {
    if (created === null || target.kind !== 'paper' || handedOver.current) return;
    handedOver.current = true;
    target.onCreated(created);
  }, [created, target]);

  const refresh = () =>
    queryClient.invalidateQueries({ queryKey: ['paper', target.kind === 'work' ? target.workId : null] });
  const nextSeq = (variantTaskId: number) => (stored.get(variantTaskId)?.seq ?? 0) + 1;

  const save = async () => {
    setAsking(false);
    setError(null);
    setBusy(true);
    try {
      const answers = changed.map((t) => ({
        variantTaskId: t.variantTaskId,
        value: drafts[t.variantTaskId] ?? emptyValue(t.answerType),
        seq: nextSeq(t.variantTaskId),
      }));
      if (target.kind === 'paper') {
        const done = await monitoringApi.keyIn(registrationCode, {
          paper: { variantId: target.variantId },
          answers,
        });
        notifications.show({ color: 'green', message: mt('paper.created', { count: done.results.length }) });
        setCreated(done.examWorkId ?? null);
        return;
      }
      const { results } = await monitoringApi.keyIn(registrationCode, {
        examWorkId: target.workId,
        answers,
      });
      const stale = results.filter((r) => r.status === 'stale').map((r) => r.variantTaskId);
      const count = results.length - stale.length;
      setDrafts((prev) =>
        Object.fromEntries(Object.entries(prev).filter(([id]) => stale.includes(Number(id)))),
      );
      if (count > 0) notifications.show({ color: 'green', message: mt('paper.saved', { count }) });
      if (stale.length)
        setError(
          mt('paper.stale', {
            tasks: tasks
              .filter((t) => stale.includes(t.variantTaskId))
              .map((t) => t.position)
              .join(', '),
          }),
        );
      await refresh();
    } catch (err) {
      setError(mt('paper.failed', { message: describeApiError(err, t) }));
    } finally {
      setBusy(false);
    }
  };

  /** A file task's scans go at once, with the files its answer keeps. */
  const uploaderOf = (workId: number, task: Task) => async (files: File[], currentFileIds: number[]) => {
    const response = await monitoringApi.keyInFiles(
      registrationCode,
      {
        examWorkId: workId,
        variantTaskId: task.variantTaskId,
        fileIds: currentFileIds,
        seq: nextSeq(task.variantTaskId),
      },
      files,
    );
    const uploaded = response.files
      .filter((f) => f.variantTaskId === task.variantTaskId)
      .map((f) => ({ id: f.id, name: f.name, size: f.size }));
    setKnownFiles((prev) => ({ ...prev, ...Object.fromEntries(uploaded.map((f) => [f.id, f])) }));
    await refresh();
    return uploaded;
  };

  const valueOf = (task: Task) =>
    task.variantTaskId in drafts
      ? drafts[task.variantTaskId]
      : (stored.get(task.variantTaskId)?.value ?? null);

  return (
    <Stack gap="md">
      <Card withBorder data-testid="paper-sitting">
        <Group gap="xl" wrap="wrap">
          <Fact label={mt('paper.participant')} value={facts.participantName} />
          <Fact label={mt('paper.subjectTest')} value={facts.subjectTestName} />
          <Fact label={mt('paper.variant')} value={String(facts.variantNumber)} />
          <Fact label={mt('paper.registrationCode')} value={registrationCode} mono testId="paper-code" />
        </Group>
      </Card>
      <Text size="sm">{mt(creates ? 'paper.introPaperOnly' : 'paper.intro')}</Text>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          // A form of a participant never online is saved even empty, after its confirmation.
          if (creates || replacesOnline.length) setAsking(true);
          else if (changed.length) void save();
        }}
        noValidate
      >
        <Stack gap="md">
          {tasks.map((task) => {
            const source = sourceOf(task, stored.get(task.variantTaskId));
            const isChanged = changed.includes(task);
            const headingId = `paper-task-${task.variantTaskId}`;
            return (
              <Card
                withBorder
                key={task.variantTaskId}
                data-testid={`paper-task-${task.position}`}
                component="section"
                aria-labelledby={headingId}
              >
                <Stack gap="xs">
                  <Group justify="space-between" wrap="wrap">
                    <Text fw={600} id={headingId} component="h2" size="md">
                      {mt('paper.task', { n: task.position })}
                    </Text>
                    <Group gap="xs">
                      <Text size="sm" c="dimmed">
                        {mt('paper.points', { max: task.maxScore })}
                      </Text>
                      <Badge
                        variant="light"
                        color={SOURCE_COLOR[source]}
                        data-testid={`paper-source-${task.position}`}
                        data-source={source}
                      >
                        {mt(`paper.source.${source}`)}
                      </Badge>
                      {isChanged && (
                        <Badge color="orange" data-testid={`paper-changed-${task.position}`}>
                          {mt('paper.changed')}
                        </Badge>
                      )}
                    </Group>
                  </Group>
                  {(!showsOwnHtml(task.answerType) || task.htmlContainerId !== null) && (
                    <RichHtml html={task.html} className="task-html" />
                  )}
                  {task.htmlContainerId !== null ? (
                    <Text size="sm" c="dimmed">
                      {mt('paper.container')}
                    </Text>
                  ) : target.kind === 'paper' && task.answerType === 'file' ? (
                    <Text size="sm" c="dimmed" data-testid={`paper-scan-later-${task.position}`}>
                      {mt('paper.scanAfterCreate')}
                    </Text>
                  ) : (
                    <AnswerInput
                      task={task}
                      value={valueOf(task)}
                      onChange={(value) => setDrafts((prev) => ({ ...prev, [task.variantTaskId]: value }))}
                      labelledBy={headingId}
                      disabled={busy}
                      upload={target.kind === 'work' ? uploaderOf(target.workId, task) : undefined}
                      knownFiles={knownFiles}
                    />
                  )}
                </Stack>
              </Card>
            );
          })}
          {error && (
            <Alert color="orange" role="alert" data-testid="paper-error">
              {error}
            </Alert>
          )}
          <Group justify="flex-end" className="paper-actions">
            <Text size="sm" c="dimmed" aria-live="polite">
              {changed.length || creates ? null : mt('paper.nothingChanged')}
            </Text>
            <LoadingButton
              type="submit"
              disabled={!creates && !changed.length}
              loading={busy}
              data-testid="paper-save"
            >
              {creates
                ? mt('paper.create', { count: changed.length })
                : changed.length
                  ? mt('paper.saveCount', { count: changed.length })
                  : mt('paper.save')}
            </LoadingButton>
          </Group>
        </Stack>
      </form>
      {asking && creates && (
        <Modal opened onClose={() => setAsking(false)} title={mt('paper.createTitle')}>
          <Stack>
            <Text>
              {mt('paper.createConfirmText', {
                name: facts.participantName,
                variant: facts.variantNumber,
                count: changed.length,
              })}
            </Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setAsking(false)}>
                {mt('paper.cancel')}
              </Button>
              <Button onClick={() => void save()} data-testid="paper-create-confirm">
                {mt('paper.createConfirm')}
              </Button>
            </Group>
          </Stack>
        </Modal>
      )}
      {asking && !creates && (
        <Modal opened onClose={() => setAsking(false)} title={mt('paper.overwriteTitle')}>
          <Stack>
            <Text>{mt('paper.overwrite', { tasks: replacesOnline.map((t) => t.position).join(', ') })}</Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setAsking(false)}>
                {mt('paper.cancel')}
              </Button>
              <Button onClick={() => void save()} data-testid="paper-overwrite-confirm">
                {mt('paper.overwriteConfirm')}
              </Button>
            </Group>
          </Stack>
        </Modal>
      )}
      {blocker.state === 'blocked' && (
        <Modal opened onClose={() => blocker.reset()} title={mt('paper.leaveTitle')}>
          <Stack>
            <Text>{mt('paper.leave')}</Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => blocker.reset()} data-autofocus>
                {mt('paper.stay')}
              </Button>
              <Button color="red" onClick={() => blocker.proceed()} data-testid="paper-leave-confirm">
                {mt('paper.leaveConfirm')}
              </Button>
            </Group>
          </Stack>
        </Modal>
      )}
    </Stack>
  );
}

function Fact({
  label,
  value,
  mono,
  testId,
}: {
  label: string;
  value: string;
  mono?: boolean;
  testId?: string;
}) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={500} ff={mono ? 'monospace' : undefined} data-testid={testId}>
        {value}
      </Text>
    </div>
  );
}
