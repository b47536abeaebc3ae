/**
 * The running work (DESIGN.md §5): task navigation, the current task, autosave through the
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
import type { FileUploader, UploadedFile } from '../../../components/answers/file-input';
import { apiClient, ApiError } from '../../../lib/api-client';
import { blanksUrl, type ExamApi, type PauseState, type TimeLeft } from '../api/exam-api';
import { uploadAnswerFiles } from '../api/upload-files';
import { useAutosave } from '../hooks/use-autosave';
import { useCountdown } from '../hooks/use-countdown';
import { loadFlags, saveFlags } from '../lib/flags';
import type { OutboxEvent } from '../lib/outbox';
import type { OutboxStore } from '../lib/outbox-store';
import { ExamTimer } from './exam-timer';
import { FinishDialog } from './finish-dialog';
import { FinishedScreen } from './finished-screen';
import { PauseOverlay } from './pause-overlay';
import { useIntegrityReporter } from '../../monitoring/use-integrity-reporter';
import { SaveStatus } from './save-status';
import { ShortcutsHelp } from './shortcuts-help';
import { TaskNav } from './task-nav';
import { TaskView } from './task-view';

export const PAUSE_POLL_MS = 10_000;
/** How long finishing waits for the outbox at the deadline before it gives up on the rest. */
export const TIMEOUT_FLUSH_MS = 15_000;

interface RunnerProps {
  test: CurrentParticipantTest;
  variant: ParticipantVariant;
  work: ExamWorkState;
  api: ExamApi;
  store: OutboxStore;
  upload?: typeof uploadAnswerFiles;
}

interface Finished {
  finishedAt: string | null;
  reason: string | null;
}

function useOnline() {
  const [online, setOnline] = useState(() => (typeof navigator === 'undefined' ? true : navigator.onLine));
  useEffect(() => {
    const up = () => setOnline(true);
    const down = () => setOnline(false);
    window.addEventListener('online', up);
    window.addEventListener('offline', down);
    return () => {
      window.removeEventListener('online', up);
      window.removeEventListener('offline', down);
    };
  }, []);
  return online;
}

const withTimeout = <T,>(promise: Promise<T>, ms: number, fallback: T) =>
  Promise.race([promise, new Promise<T>((resolve) => setTimeout(() => resolve(fallback), ms))]);

export function Runner({ test, variant, work, api, store, upload = uploadAnswerFiles }: RunnerProps) {
  const { t } = useTranslation();
  const tasks = useMemo(() => [...variant.tasks].sort((a, b) => a.position - b.position), [variant.tasks]);
  const taskById = useMemo(() => new Map(tasks.map((task) => [task.variantTaskId, task])), [tasks]);
  const online = useOnline();
  useIntegrityReporter(work.id);
  const [finished, setFinished] = useState<Finished | null>(null);
  const [pause, setPause] = useState<PauseState | null>(null);
  const [pauseBusy, setPauseBusy] = useState(false);
  const [blocked, setBlocked] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [finishOpen, setFinishOpen] = useState(false);
  const [finishBusy, setFinishBusy] = useState(false);
  const [finishProblem, setFinishProblem] = useState<string | null>(null);
  const [flags, setFlags] = useState<Set<number>>(() => loadFlags(work.id));
  const [modes, setModes] = useState<Record<number, AnswerMode>>(() =>
    Object.fromEntries((work.answers ?? []).map((a) => [a.variantTaskId, a.answerMode])),
  );
  const [knownFiles, setKnownFiles] = useState<Record<number, UploadedFile>>({});
  const positionKey = `attesta.task.${work.id}`;
  const [index, setIndex] = useState(() => {
    const saved = Number(sessionStorage.getItem(positionKey));
    return Number.isInteger(saved) && saved >= 0 && saved < tasks.length ? saved : 0;
  });
  const headingRef = useRef<HTMLHeadingElement>(null);
  const moved = useRef(false);
  const finishing = useRef(false);

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

  const refreshPause = useCallback(async () => {
    try {
      const state = await api.pauseState();
      setPause(state.paused ? state : null);
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
        const message = event.error instanceof Error ? event.error.message : '';
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
        else setBlocked(event.error instanceof Error ? event.error.message : t('runner.save.blockedText'));
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
  const { outbox, values, snapshot, unsavedTaskIds, change, commit, flush, setServerValue } = useAutosave({
    work,
    store,
    transport,
    onEvent: onOutboxEvent,
    refetchAnswer,
  });

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

  // Opened while paused (a reload during a pause): learn who paused it.
  useEffect(() => {
    if (work.status !== 'paused' && !work.pausedAt) return;
    let alive = true;
    api
      .pauseState()
      .then((state) => {
        if (alive) setPause(state.paused ? state : null);
      })
      .catch(() => {});
    return () => {
      alive = false;
    };
  }, [api, work.status, work.pausedAt]);

  const finishByTimeout = useCallback(async () => {
    if (finishing.current) return;
    finishing.current = true;
    await withTimeout(flush(), TIMEOUT_FLUSH_MS, false);
    try {
      await api.finish(work.id, 'timeout');
    } catch {
      // Already finished by the server's sweeper (409) or offline: the server finishes it anyway.
    }
    await goFinished('timeout');
  }, [api, flush, goFinished, work.id]);

  const countdown = useCountdown({
    deadlineAt: work.deadlineAt,
    serverTime: work.serverTime,
    paused,
    pausedSecondsLeft: pause?.secondsLeft,
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

  // Poll the pause state while paused: staff resume it from their console.
  useEffect(() => {
    if (!paused) return;
    const id = setInterval(() => {
      void refreshPause().then((state) => {
        if (state && !state.paused) void countdown.resync();
      });
    }, PAUSE_POLL_MS);
    return () => clearInterval(id);
  }, [paused, refreshPause, countdown]);

  const goTo = useCallback(
    (next: number) => {
      if (next < 0 || next >= tasks.length) return;
      void commit();
      moved.current = true;
      setIndex(next);
      sessionStorage.setItem(positionKey, String(next));
    },
    [commit, tasks.length, positionKey],
  );

  // Switching tasks puts the keyboard and screen reader on the new task's heading.
  useEffect(() => {
    if (moved.current) headingRef.current?.focus();
  }, [index]);

  const task = tasks[index]!;
  const toggleFlag = useCallback(() => {
    setFlags((prev) => {
      const next = new Set(prev);
      if (next.has(task.variantTaskId)) next.delete(task.variantTaskId);
      else next.add(task.variantTaskId);
      saveFlags(work.id, next);
      return next;
    });
  }, [task.variantTaskId, work.id]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!e.altKey || e.ctrlKey || e.metaKey || paused || finished) return;
      if (e.key === 'ArrowRight') {
        e.preventDefault();
        goTo(index + 1);
      } else if (e.key === 'ArrowLeft') {
        e.preventDefault();
        goTo(index - 1);
      } else if (e.code === 'KeyF') {
        e.preventDefault();
        toggleFlag();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [goTo, index, paused, finished, toggleFlag]);

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
        message: t('runner.mode.failed', { message: error instanceof Error ? error.message : '' }),
      });
    }
  };

  const uploadFor =
    (variantTaskId: number): FileUploader =>
    async (files, fileIds, onProgress) => {
      await commit(variantTaskId);
      const seq = outbox.reserveSeq(variantTaskId);
      const response = await upload({ examWorkId: work.id, variantTaskId, fileIds, seq, files, onProgress });
      const stored = response.files.filter((f) => f.variantTaskId === variantTaskId);
      setKnownFiles((prev) => ({ ...prev, ...Object.fromEntries(stored.map((f) => [f.id, f])) }));
      const result = response.results.find((r) => r.variantTaskId === variantTaskId);
      setServerValue(
        variantTaskId,
        { fileIds: [...fileIds, ...stored.map((f) => f.id)] },
        result?.seq ?? seq,
      );
      if (result) outbox.noteSaved(result.savedAt);
      return stored;
    };

  const pauseWork = async (next: boolean) => {
    setPauseBusy(true);
    try {
      if (next) await commit();
      const state = await api.setPause(next);
      setPause(state.paused ? state : null);
      if (!state.paused) void countdown.resync();
    } catch (error) {
      notifications.show({
        color: 'red',
        message: t('runner.pause.failed', { message: error instanceof Error ? error.message : '' }),
      });
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
      await api.finish(work.id, 'manual');
      setFinishOpen(false);
      await goFinished('manual');
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        setFinishOpen(false);
        await goFinished(null);
      } else {
        setFinishProblem(t('runner.finish.failed', { message: error instanceof Error ? error.message : '' }));
      }
    } finally {
      finishing.current = false;
      setFinishBusy(false);
    }
  };

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
          <Button
            variant="default"
            onClick={() => void pauseWork(true)}
            loading={pauseBusy && !paused}
            data-testid="pause-work"
          >
            {t('runner.pause.button')}
          </Button>
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

      <div className="runner-body" aria-hidden={paused || undefined}>
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
            knownFiles={knownFiles}
            onChange={(value) => change(task.variantTaskId, value)}
            onCommit={() => void commit(task.variantTaskId)}
            onToggleFlag={toggleFlag}
            onMode={(mode) => void setMode(mode)}
            onPrev={() => goTo(index - 1)}
            onNext={() => goTo(index + 1)}
            upload={uploadFor(task.variantTaskId)}
            loadContainer={api.htmlContainer}
          />
        </main>
      </div>

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
