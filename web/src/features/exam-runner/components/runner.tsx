/**
 * The running work (docs/design.md §5): task navigation, the current task, autosave through the
 * outbox, the server-synced countdown, pause, finish. Every call here suppresses the global error
 * redirect (a failed save never navigates away); only a lost session goes to the unauthorized page.
 */
import type { CurrentParticipantTest, ExamWorkState, ParticipantVariant } from '@attesta/contract';
import { Alert, VisuallyHidden } from '../../../components/lite/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isAppShell } from '../../../lib/device';
import { logOff } from '../../../lib/logoff';
import { clearRunnerSnapshot } from '../../../lib/runner-snapshot';
import { blanksUrl, type ExamApi } from '../api/exam-api';
import { uploadAnswerFiles } from '../api/upload-files';
import { useFinish } from '../hooks/use-finish';
import { useFlags } from '../hooks/use-flags';
import { useIntegrityReporter } from '../hooks/use-integrity-reporter';
import { useLeaveGuard } from '../hooks/use-leave-guard';
import { useOnline } from '../hooks/use-online';
import { usePause, usePauseTimers, type Resyncable } from '../hooks/use-pause';
import { useRunnerClock } from '../hooks/use-runner-clock';
import { useRunnerNotices, type OutboxFollowUps } from '../hooks/use-runner-notices';
import { useAnsweredTasks, useTaskModes } from '../hooks/use-task-modes';
import { useTaskNavigation } from '../hooks/use-task-navigation';
import { useWorkSaving } from '../hooks/use-work-saving';
import { useReaderSettings } from '../hooks/use-reader-settings';
import { readerClassNames } from '../lib/reader-settings';
import type { FileOutboxStore } from '../lib/file-outbox';
import type { OutboxStore } from '../lib/outbox-store';
import { EndedScreen, TimeUpScreen } from './ended-screen';
import { FinishDialog } from './finish-dialog';
import { FinishedScreen } from './finished-screen';
import { LeaveDialog, type LeaveKind } from './leave-dialog';
import { LineReader } from './line-reader';
import { PauseOverlay } from './pause-overlay';
import { RestBreakButton } from './rest-break-button';
import { HighlighterTool } from './highlighter-tool';
import { CalculatorTool } from './calculator-tool';
import { ReaderTools } from './reader-tools';
import { RunnerBar } from './runner-bar';
import { RunnerFrame } from './runner-frame';
import { RunnerTasks } from './runner-tasks';
import { StaffMessages } from './staff-message';

export { TIMEOUT_FLUSH_MS } from '../hooks/use-finish';
export { PAUSE_POLL_MS } from '../hooks/use-pause';

/** How long leaving or logging out waits for the outbox; what is still unsent stays in this browser. */
export const LEAVE_FLUSH_MS = 5_000;

const withTimeout = <T,>(promise: Promise<T>, ms: number, fallback: T) =>
  Promise.race([promise, new Promise<T>((resolve) => setTimeout(() => resolve(fallback), ms))]);

/**
 * A sitting on paper: the test allows answer forms and the work was started for them (the work's
 * answer mode, decided at its start), or a task already is on the form. An online sitting shows no
 * form controls and no forms link.
 */
export function isPaperSitting(
  allowBlank: boolean,
  work: Pick<ExamWorkState, 'answerMode' | 'answers'>,
): boolean {
  if (!allowBlank) return false;
  return work.answerMode === 'blank' || (work.answers ?? []).some((a) => a.answerMode === 'blank');
}

interface RunnerProps {
  test: CurrentParticipantTest;
  variant: ParticipantVariant;
  work: ExamWorkState;
  api: ExamApi;
  store: OutboxStore;
  /** Where attachments chosen offline wait (IndexedDB by default). */
  fileStore?: FileOutboxStore;
  upload?: typeof uploadAnswerFiles;
  /** The app's tools in the runner's header (help, feedback), composed in app/. */
  tools?: ReactNode;
}

export function Runner({
  test,
  variant,
  work,
  api,
  store,
  fileStore,
  upload = uploadAnswerFiles,
  tools,
}: RunnerProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const kiosk = useMemo(() => isAppShell(), []);
  const [paperSitting] = useState(() => isPaperSitting(test.subjectTest.allowBlank, work));
  const tasks = useMemo(() => [...variant.tasks].sort((a, b) => a.position - b.position), [variant.tasks]);
  const taskById = useMemo(() => new Map(tasks.map((task) => [task.variantTaskId, task])), [tasks]);
  const online = useOnline();
  // Reading aids: the participant's own accommodations set where they start (docs/accommodations.md).
  const reader = useReaderSettings(test.participant.accommodations);
  const readAloud = test.participant.accommodations?.textToSpeech ?? false;
  useIntegrityReporter(work.id);
  const { flags, toggle: toggleTaskFlag } = useFlags(work.id, work.flags, api, online);
  const { modes, setMode } = useTaskModes(api, work);
  // The finish and the pause need the saving, whose events lead to them: bound once they exist.
  const followUpsRef = useRef<OutboxFollowUps | null>(null);
  const { blocked: saveBlocked, onOutboxEvent, notifyRejected } = useRunnerNotices(taskById, followUpsRef);
  const saving = useWorkSaving({
    api,
    work,
    store,
    fileStore,
    upload,
    online,
    onEvent: onOutboxEvent,
    onRefused: notifyRejected,
  });
  const { outbox, values, snapshot, commit, unsavedTaskIds } = saving;

  const countdownRef = useRef<Resyncable | null>(null);
  const pausing = usePause({ api, outbox, held: snapshot.held, commit, countdown: countdownRef });
  const { pause, paused, refreshPause } = pausing;
  const finish = useFinish({ api, workId: work.id, flush: saving.flush, commit, online });
  const { finished, ended, goFinished, finishByTimeout, dialog } = finish;
  useEffect(() => {
    followUpsRef.current = { goFinished, refreshPause };
  });
  const { countdown, live, announcement } = useRunnerClock({
    api,
    work,
    pause,
    listen: !finished && !ended,
    refreshPause,
    goFinished,
    finishByTimeout,
    onEnded: finish.setEnded,
    countdownRef,
  });
  usePauseTimers({ pause, live, refreshPause, countdown });
  // Finished: the local copy of the sitting is no longer needed (a shared computer keeps nothing).
  useEffect(() => {
    if (finished) void clearRunnerSnapshot();
  }, [finished]);

  const nav = useTaskNavigation({
    examWorkId: work.id,
    tasks,
    beforeMove: commit,
    disabled: paused || !!finished,
    onToggleFlag: toggleTaskFlag,
  });
  const answered = useAnsweredTasks(tasks, values, modes);

  // Leaving a work in progress asks first; once it is finished or ended here, nothing holds.
  const leaveGuard = useLeaveGuard(!finished && !ended);
  const [asking, setAsking] = useState<LeaveKind | null>(null);
  const [leaving, setLeaving] = useState(false);
  const blocked = leaveGuard.blocker.state === 'blocked';
  const leaveKind: LeaveKind | null = asking ?? (blocked ? 'leave' : null);
  const stay = () => {
    setAsking(null);
    if (leaveGuard.blocker.state === 'blocked') leaveGuard.blocker.reset();
  };
  const leave = async () => {
    setLeaving(true);
    // Whatever the network allows goes now; the rest waits in this browser's outbox.
    await withTimeout(saving.flush(), LEAVE_FLUSH_MS, false);
    leaveGuard.release();
    if (leaveKind === 'logout') {
      await logOff({ queryClient });
      return;
    }
    setLeaving(false);
    if (leaveGuard.blocker.state === 'blocked') leaveGuard.blocker.proceed();
  };

  if (ended)
    return (
      <RunnerFrame>
        <EndedScreen why={ended} />
      </RunnerFrame>
    );
  if (finish.timeUp && !finished)
    return (
      <RunnerFrame>
        <TimeUpScreen unsent={unsavedTaskIds.size} online={online} onRetry={() => void finishByTimeout()} />
      </RunnerFrame>
    );

  if (finished) {
    return (
      <RunnerFrame>
        <FinishedScreen
          participantTestId={test.id}
          finishedAt={finished.finishedAt}
          reason={finished.reason}
          answered={answered.size}
          total={tasks.length}
        />
      </RunnerFrame>
    );
  }

  return (
    <div
      className={['runner', readerClassNames(reader.settings)].filter(Boolean).join(' ')}
      data-testid="runner"
      data-text-size={reader.settings.textSize}
      data-zoom={reader.settings.zoom}
      style={{ '--runner-zoom': reader.settings.zoom / 100 } as CSSProperties}
    >
      {reader.settings.lineReader && <LineReader />}
      <VisuallyHidden aria-live="polite" data-testid="timer-announcement">
        {announcement}
      </VisuallyHidden>
      <RunnerBar
        variant={variant}
        participantName={test.participant.displayName}
        snapshot={snapshot}
        unsavedCount={unsavedTaskIds.size}
        online={online}
        onRetry={() => outbox.retryNow()}
        secondsLeft={countdown.secondsLeft}
        paused={paused}
        allowance={pausing.allowance}
        pauseBusy={pausing.busy}
        onPause={() => void pausing.pauseWork(true)}
        onFinish={dialog.open}
        tools={
          <>
            <ReaderTools settings={reader.settings} onChange={reader.change} />
            <RestBreakButton
              secondsLeft={pausing.restBreakLeft}
              busy={pausing.busy && !paused}
              onStart={() => void pausing.pauseWork(true, true)}
            />
            <HighlighterTool taskKey={nav.task ? `${work.id}:${nav.task.variantTaskId}` : null} />
            {test.subjectTest.allowCalculator && <CalculatorTool />}
            {tools}
          </>
        }
        kiosk={kiosk}
        onLogout={kiosk ? undefined : () => setAsking('logout')}
      />
      <StaffMessages />

      {saveBlocked && (
        <Alert color="red" variant="filled" role="alert" data-testid="save-blocked" mx="lg" mb="md">
          {t('runner.save.blockedText')} {saveBlocked}
        </Alert>
      )}

      {/* While paused the tasks are not on the page at all, not only covered. */}
      {paused ? (
        <main id="main" className="runner-task" />
      ) : (
        <RunnerTasks
          tasks={tasks}
          nav={nav}
          answered={answered}
          flags={flags}
          unsaved={unsavedTaskIds}
          instructionHtml={variant.instructionHtml}
          modes={modes}
          onMode={setMode}
          onToggleFlag={toggleTaskFlag}
          allowBlank={paperSitting}
          blanksHref={blanksUrl(work.id)}
          disabled={paused}
          saving={saving}
          loadContainer={api.htmlContainer}
          readAloud={readAloud}
        />
      )}

      {pause && (
        <PauseOverlay
          pause={pause}
          busy={pausing.busy}
          onResume={() => void pausing.pauseWork(false, pause.restBreak)}
        />
      )}

      <FinishDialog
        opened={dialog.opened}
        tasks={tasks}
        answered={answered}
        flagged={flags}
        unsentCount={unsavedTaskIds.size}
        busy={dialog.busy}
        problem={dialog.problem}
        onJump={(i) => {
          dialog.close();
          nav.goTo(i);
        }}
        onConfirm={() => void dialog.confirm()}
        onClose={dialog.close}
      />

      <LeaveDialog
        kind={leaveKind}
        unsentCount={unsavedTaskIds.size}
        busy={leaving}
        onStay={stay}
        onLeave={() => void leave()}
      />
    </div>
  );
}
