/**
 * The running work (docs/design.md §5): task navigation, the current task, autosave through the
 * outbox, the server-synced countdown, pause, finish. Every call here suppresses the global error
 * redirect (a failed save never navigates away); only a lost session goes to the unauthorized page.
 */
import type {
  AnswerMode,
  CurrentParticipantTest,
  ExamWorkState,
  ParticipantVariant,
} from '@attesta/contract';
import { Alert, Button, Group, Stack, Text, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isAnswered } from '../../../components/answers/answer-value';
import { RichHtml } from '../../../components/answers/rich-html';
import { apiClient, ApiError } from '../../../lib/api-client';
import { describeApiError } from '../../../lib/form-errors';
import { blanksUrl, type ExamApi, type PauseState, type TimeLeft } from '../api/exam-api';
import { uploadAnswerFiles } from '../api/upload-files';
import { useAutosave } from '../hooks/use-autosave';
import { RESYNC_MS, useCountdown } from '../hooks/use-countdown';
import { useWorkEvents, type WorkEventKind } from '../hooks/use-work-events';
import { useFlags } from '../hooks/use-flags';
import { useOnline } from '../hooks/use-online';
import { useTaskNavigation } from '../hooks/use-task-navigation';
import { useAttachments } from '../hooks/use-attachments';
import { fileOutboxStore, type FileOutboxStore } from '../lib/file-outbox';
import type { OutboxEvent } from '../lib/outbox';
import type { OutboxStore } from '../lib/outbox-store';
import { ExamTimer } from './exam-timer';
import { FinishDialog } from './finish-dialog';
import { FinishedScreen } from './finished-screen';
import { EndedScreen, TimeUpScreen } from './ended-screen';
import { PauseButton, PauseOverlay } from './pause-overlay';
import { useIntegrityReporter } from '../hooks/use-integrity-reporter';
import { SaveStatus } from './save-status';
import { ShortcutsHelp } from './shortcuts-help';
import { TaskNav } from './task-nav';
import { TaskView } from './task-view';

/** Without the server's push (stream down), the pause state is polled this often. */
export const PAUSE_POLL_MS = 10_000;
/** With the push live, the clock is still re-synced now and then against drift. */
const LIVE_RESYNC_MS = 60_000;
/** How long finishing waits for the outbox at the deadline before it gives up on the rest. */
export const TIMEOUT_FLUSH_MS = 15_000;

interface RunnerProps {
  test: CurrentParticipantTest;
  variant: ParticipantVariant;
  work: ExamWorkState;
  api: ExamApi;
  store: OutboxStore;
  /** Where attachments chosen offline wait (IndexedDB by default). */
  fileStore?: FileOutboxStore;
  upload?: typeof uploadAnswerFiles;
}

interface Finished {
  finishedAt: string | null;
  reason: string | null;
}

/** Why this runner can no longer work on the work: staff moved it, logged the participant out, deleted it. */
type Ended = 'session_cleared' | 'logged_out' | 'deleted';

const withTimeout = <T,>(promise: Promise<T>, ms: number, fallback: T) =>
  Promise.race([promise, new Promise<T>((resolve) => setTimeout(() => resolve(fallback), ms))]);

export function Runner({
  test,
  variant,
  work,
  api,
  store,
  fileStore: givenFileStore,
  upload = uploadAnswerFiles,
}: RunnerProps) {
  const [fileStore] = useState(() => givenFileStore ?? fileOutboxStore());
  const { t } = useTranslation();
  const tasks = useMemo(() => [...variant.tasks].sort((a, b) => a.position - b.position), [variant.tasks]);
  const taskById = useMemo(() => new Map(tasks.map((task) => [task.variantTaskId, task])), [tasks]);
  const online = useOnline();
  useIntegrityReporter(work.id);
  const [finished, setFinished] = useState<Finished | null>(null);
  const [pause, setPause] = useState<PauseState | null>(null);
  const [allowance, setAllowance] = useState<PauseState['allowance']>(null);
  const [ended, setEnded] = useState<Ended | null>(null);
  const [timeUp, setTimeUp] = useState(false);
  const [pauseBusy, setPauseBusy] = useState(false);
  const [blocked, setBlocked] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [finishOpen, setFinishOpen] = useState(false);
  const [finishBusy, setFinishBusy] = useState(false);
  const [finishProblem, setFinishProblem] = useState<string | null>(null);
  const { flags, toggle: toggleTaskFlag } = useFlags(work.id, work.flags, api, online);
  const [modes, setModes] = useState<Record<number, AnswerMode>>(() =>
    Object.fromEntries((work.answers ?? []).map((a) => [a.variantTaskId, a.answerMode])),
  );
  const finishing = useRef(false);

  /** The server said the work is finished (a refused save, the push, a clock sync): show it. */
  const goFinished = useCallback(
    async (fallbackReason: string | null) => {
      try {
        const state = await api.work(work.id);
        setFinished({ finishedAt: state.finishedAt, reason: state.finishReason ?? fallbackReason });
      } catch {
        setFinished({ finishedAt: new Date().toISOString(), reason: fallbackReason });
      }
    },
    [api, work.id],
  );

  /** Whether the server has the work finished; if so the finished screen shows (the truth). */
  const finishedOnServer = useCallback(async () => {
    try {
      const state = await api.work(work.id);
      if (state.status !== 'finished' && state.status !== 'scored') return false;
      setFinished({ finishedAt: state.finishedAt, reason: state.finishReason });
      return true;
    } catch {
      return false;
    }
  }, [api, work.id]);

  const refreshPause = useCallback(async () => {
    try {
      const state = await api.pauseState();
      setPause(state.paused ? state : null);
      setAllowance(state.allowance);
      return state;
    } catch {
      return null;
    }
  }, [api]);

  const onOutboxEvent = useCallback(
    (event: OutboxEvent) => {
      if (event.type === 'stale') {
        const task = taskById.get(event.variantTaskId);
        notifications.show({
          color: 'blue',
          title: t('runner.stale.title'),
          message: t('runner.stale.text', { n: task?.position ?? '' }),
          autoClose: 8000,
        });
      } else if (event.type === 'rejected') {
        const task = taskById.get(event.variantTaskId);
        const message = describeApiError(event.error, t);
        notifications.show({
          color: 'red',
          title: t('runner.rejected.title', { n: task?.position ?? '' }),
          message: t('runner.rejected.text', { message }),
          autoClose: false,
        });
      } else if (event.type === 'paused') {
        void refreshPause();
      } else if (event.type === 'stopped') {
        if (event.reason === 'finished') void goFinished(null);
        else if (event.reason === 'unauthorized' && event.error instanceof ApiError)
          apiClient.redirectFor(event.error);
        else setBlocked(describeApiError(event.error, t));
      }
    },
    [goFinished, refreshPause, t, taskById],
  );

  const transport = useMemo(() => ({ saveOne: api.saveAnswer, saveMany: api.saveAnswers }), [api]);
  const refetchAnswer = useCallback(
    async (variantTaskId: number) => {
      const state = await api.work(work.id);
      return state.answers?.find((a) => a.variantTaskId === variantTaskId) ?? null;
    },
    [api, work.id],
  );
  const {
    outbox,
    values,
    snapshot,
    unsavedTaskIds: unsavedAnswers,
    change,
    commit,
    flush: flushAnswers,
    setServerValue,
  } = useAutosave({
    work,
    store,
    transport,
    onEvent: onOutboxEvent,
    refetchAnswer,
  });
  const files = useAttachments({
    examWorkId: work.id,
    store: fileStore,
    upload,
    values,
    outbox,
    commit,
    setServerValue,
    online,
    reachedAt: snapshot.lastSavedAt,
    onRefused: (variantTaskId, error) => {
      const task = taskById.get(variantTaskId);
      notifications.show({
        color: 'red',
        title: t('runner.rejected.title', { n: task?.position ?? '' }),
        message: t('runner.rejected.text', { message: describeApiError(error, t) }),
        autoClose: false,
      });
    },
  });
  const { flushFiles, waitingTaskIds } = files;
  /** Tasks with something the server does not have yet: a typed answer or a waiting file. */
  const unsavedTaskIds = useMemo(
    () => new Set([...unsavedAnswers, ...waitingTaskIds]),
    [unsavedAnswers, waitingTaskIds],
  );
  /** Everything this browser holds goes to the server; true when it has all of it. */
  const flush = useCallback(async () => {
    const answers = await flushAnswers();
    const attachments = await flushFiles();
    return answers && attachments;
  }, [flushAnswers, flushFiles]);

  // The connection is back: send what waits at once.
  useEffect(() => {
    if (online) outbox.retryNow();
  }, [online, outbox]);

  // While paused nothing is sent (the server would refuse it), and the tasks are hidden.
  const paused = pause !== null;
  useEffect(() => {
    if (paused) outbox.hold();
    else if (snapshot.held) outbox.release();
  }, [paused, outbox, snapshot.held]);

  // The pause state once at the start: who paused it (a reload during a pause) and the pauses left.
  useEffect(() => {
    let alive = true;
    api
      .pauseState()
      .then((state) => {
        if (!alive) return;
        setPause(state.paused ? state : null);
        setAllowance(state.allowance);
      })
      .catch(() => {});
    return () => {
      alive = false;
    };
  }, [api]);

  /**
   * Time is up: send what waits (bounded), then finish. Only the server's answer makes the work
   * finished on screen; without it (offline) the participant is told so, and the answers that
   * could not be sent stay in this browser.
   */
  const finishByTimeout = useCallback(async () => {
    if (finishing.current) return;
    finishing.current = true;
    try {
      await withTimeout(flush(), TIMEOUT_FLUSH_MS, false);
      try {
        const state = await api.finish(work.id, 'timeout');
        setFinished({ finishedAt: state.finishedAt, reason: state.finishReason });
        setTimeUp(false);
      } catch {
        // Already finished by the server's sweeper (409), or offline.
        if (!(await finishedOnServer())) setTimeUp(true);
      }
    } finally {
      finishing.current = false;
    }
  }, [api, flush, finishedOnServer, work.id]);

  // Time is up but the server was out of reach: try again as soon as the connection returns.
  useEffect(() => {
    if (timeUp && online) void finishByTimeout();
  }, [timeUp, online, finishByTimeout]);

  // Staff actions arrive by push; the timers below are the fallback while the push is down.
  const countdownRef = useRef<{ resync: () => Promise<void> } | null>(null);
  const onWorkEvent = useCallback(
    (kind: WorkEventKind) => {
      if (kind === 'paused' || kind === 'resumed')
        void refreshPause().then(() => countdownRef.current?.resync());
      else if (kind === 'time_changed' || kind === 'restored') void countdownRef.current?.resync();
      else if (kind === 'finished') void goFinished(null);
      else setEnded(kind);
    },
    [goFinished, refreshPause],
  );
  const { live } = useWorkEvents(!finished && !ended, onWorkEvent);

  const countdown = useCountdown({
    deadlineAt: work.deadlineAt,
    serverTime: work.serverTime,
    paused,
    pausedSecondsLeft: pause?.secondsLeft,
    resyncMs: live ? LIVE_RESYNC_MS : RESYNC_MS,
    fetchLeft: () => api.timeLeft(work.id),
    onSync: (left: TimeLeft) => {
      if (left.status === 'finished' || left.status === 'scored') void goFinished(null);
      // Staff pause or resume it from their room view: the 10 s sync notices either way.
      else if (left.paused !== paused) void refreshPause();
    },
    onWarning: (seconds) => setAnnouncement(t('runner.timer.warning', { count: Math.round(seconds / 60) })),
    onExpire: () => {
      // The server's clock rules: ask it before finishing (staff may have added time).
      void api
        .timeLeft(work.id)
        .then((left) => {
          if (left.secondsLeft > 0 && left.status !== 'finished' && left.status !== 'scored')
            countdown.rearm(left);
          else void finishByTimeout();
        })
        .catch(() => void finishByTimeout());
    },
  });

  useEffect(() => {
    countdownRef.current = countdown;
  });

  // While paused and without the push, poll: staff resume it from their console.
  useEffect(() => {
    if (!paused || live) return;
    const id = setInterval(() => {
      void refreshPause().then((state) => {
        if (state && !state.paused) void countdown.resync();
      });
    }, PAUSE_POLL_MS);
    return () => clearInterval(id);
  }, [paused, live, refreshPause, countdown]);

  // An own pause ends by itself when its allowance runs out: the clock runs again then.
  const pausedUntil = pause?.pausedUntil ?? null;
  useEffect(() => {
    if (!pausedUntil) return;
    const wait = Math.max(0, Date.parse(pausedUntil) - Date.parse(pause!.serverTime)) + 500;
    const id = setTimeout(() => {
      void refreshPause().then(() => countdown.resync());
    }, wait);
    return () => clearTimeout(id);
  }, [pausedUntil, pause, refreshPause, countdown]);

  const { index, task, goTo, headingRef } = useTaskNavigation({
    examWorkId: work.id,
    tasks,
    beforeMove: commit,
    disabled: paused || !!finished,
    onToggleFlag: toggleTaskFlag,
  });
  const toggleFlag = useCallback(
    () => toggleTaskFlag(task.variantTaskId),
    [toggleTaskFlag, task.variantTaskId],
  );

  const answered = useMemo(
    () =>
      new Set(
        tasks
          .filter(
            (x) => isAnswered(x.answerType, values[x.variantTaskId]) || modes[x.variantTaskId] === 'blank',
          )
          .map((x) => x.variantTaskId),
      ),
    [tasks, values, modes],
  );

  const setMode = async (mode: AnswerMode) => {
    const id = task.variantTaskId;
    try {
      const result = await api.setTaskMode(work.id, id, mode);
      setModes((prev) => ({ ...prev, [id]: result.answerMode }));
    } catch (error) {
      notifications.show({
        color: 'red',
        message: t('runner.mode.failed', { message: describeApiError(error, t) }),
      });
    }
  };

  const pauseWork = async (next: boolean) => {
    setPauseBusy(true);
    try {
      if (next) await commit();
      const state = await api.setPause(next);
      setPause(state.paused ? state : null);
      setAllowance(state.allowance);
      if (!state.paused) void countdown.resync();
    } catch (error) {
      notifications.show({ color: 'red', message: describeApiError(error, t) });
      if (error instanceof ApiError && error.code === 'pause_limit') void refreshPause();
    } finally {
      setPauseBusy(false);
    }
  };

  const confirmFinish = async () => {
    setFinishBusy(true);
    setFinishProblem(null);
    finishing.current = true;
    try {
      const allSent = await flush();
      if (!allSent) {
        setFinishProblem(t('runner.finish.notSent'));
        return;
      }
      const state = await api.finish(work.id, 'manual');
      setFinishOpen(false);
      setFinished({ finishedAt: state.finishedAt, reason: state.finishReason });
    } catch (error) {
      // Refused or unreachable: the work is not finished unless the server says it is; the
      // answers stay in the outbox either way.
      if (error instanceof ApiError && error.isNetworkError) setFinishProblem(t('runner.finish.offline'));
      else if (error instanceof ApiError && error.status === 409 && (await finishedOnServer()))
        setFinishOpen(false);
      else setFinishProblem(t('runner.finish.failed', { message: describeApiError(error, t) }));
    } finally {
      finishing.current = false;
      setFinishBusy(false);
    }
  };

  if (ended) return <EndedScreen why={ended} />;
  if (timeUp && !finished)
    return (
      <TimeUpScreen unsent={unsavedTaskIds.size} online={online} onRetry={() => void finishByTimeout()} />
    );

  if (finished) {
    return (
      <FinishedScreen
        finishedAt={finished.finishedAt}
        reason={finished.reason}
        answered={answered.size}
        total={tasks.length}
      />
    );
  }

  return (
    <div className="runner">
      <VisuallyHidden aria-live="polite" data-testid="timer-announcement">
        {announcement}
      </VisuallyHidden>
      <div className="runner-bar">
        <Stack gap={0} className="runner-title">
          <Text fw={650} component="h1" fz="lg" m={0} data-testid="runner-title">
            {variant.subjectTestName}
          </Text>
          <Text size="xs" c="dimmed">
            {t('runner.variant', { n: variant.number })} · {test.participant.displayName}
          </Text>
        </Stack>
        <SaveStatus
          snapshot={snapshot}
          unsavedCount={unsavedTaskIds.size}
          online={online}
          onRetry={() => outbox.retryNow()}
        />
        <Group gap="xs" wrap="nowrap" className="runner-actions">
          <ExamTimer secondsLeft={countdown.secondsLeft} paused={paused} />
          <PauseButton
            allowance={allowance}
            busy={pauseBusy && !paused}
            onPause={() => void pauseWork(true)}
          />
          <ShortcutsHelp />
          <Button
            color="red.8"
            onClick={() => {
              void commit();
              setFinishProblem(null);
              setFinishOpen(true);
            }}
            data-testid="finish-work"
          >
            {t('runner.finish.button')}
          </Button>
        </Group>
      </div>

      {blocked && (
        <Alert color="red" variant="filled" role="alert" data-testid="save-blocked" mb="md">
          {t('runner.save.blockedText')} {blocked}
        </Alert>
      )}

      {/* While paused the tasks are not on the page at all, not only covered. */}
      {!paused && (
        <div className="runner-body">
          <TaskNav
            tasks={tasks}
            currentIndex={index}
            answered={answered}
            flagged={flags}
            unsaved={unsavedTaskIds}
            onSelect={goTo}
          />
          <main className="runner-task" id="runner-task">
            {variant.instructionHtml && index === 0 && (
              <details className="runner-instruction">
                <summary>{t('runner.instruction')}</summary>
                <RichHtml html={variant.instructionHtml} />
              </details>
            )}
            <TaskView
              key={task.variantTaskId}
              ref={headingRef}
              task={task}
              index={index}
              total={tasks.length}
              value={values[task.variantTaskId]}
              flagged={flags.has(task.variantTaskId)}
              mode={modes[task.variantTaskId] ?? 'online'}
              allowBlank={test.subjectTest.allowBlank}
              blanksHref={blanksUrl(work.id)}
              disabled={paused}
              knownFiles={files.knownFiles}
              waitingFiles={files.waitingFiles(task.variantTaskId)}
              onChange={(value) => change(task.variantTaskId, value)}
              onCommit={() => void commit(task.variantTaskId)}
              onToggleFlag={toggleFlag}
              onMode={(mode) => void setMode(mode)}
              onPrev={() => goTo(index - 1)}
              onNext={() => goTo(index + 1)}
              upload={files.uploaderFor(task.variantTaskId)}
              loadContainer={api.htmlContainer}
            />
          </main>
        </div>
      )}

      {pause && <PauseOverlay pause={pause} busy={pauseBusy} onResume={() => void pauseWork(false)} />}

      <FinishDialog
        opened={finishOpen}
        tasks={tasks}
        answered={answered}
        flagged={flags}
        unsentCount={unsavedTaskIds.size}
        busy={finishBusy}
        problem={finishProblem}
        onJump={(i) => {
          setFinishOpen(false);
          goTo(i);
        }}
        onConfirm={() => void confirmFinish()}
        onClose={() => setFinishOpen(false)}
      />
    </div>
  );
}
