/**
 * The task side of the runner: the task list and the current task, with the test's instruction
 * above the first one. The runner leaves it off the page entirely while the work is paused.
 */
import type { AnswerMode, ParticipantTask } from '@attesta/contract';
import { useCallback, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { RichHtml } from '../../../components/answers/rich-html';
import type { useWorkSaving } from '../hooks/use-work-saving';
import type { ContainerLoader } from './container-answer';
import { TaskNav } from './task-nav';
import { TaskView } from './task-view';

interface RunnerTasksProps {
  tasks: readonly ParticipantTask[];
  /** The shown task (useTaskNavigation). */
  nav: {
    index: number;
    task: ParticipantTask;
    goTo: (index: number) => void;
    headingRef: Ref<HTMLHeadingElement>;
  };
  answered: ReadonlySet<number>;
  flags: ReadonlySet<number>;
  /** Tasks with something the server does not have yet. */
  unsaved: ReadonlySet<number>;
  instructionHtml: string | null;
  modes: Record<number, AnswerMode>;
  onMode: (variantTaskId: number, mode: AnswerMode) => unknown;
  onToggleFlag: (variantTaskId: number) => void;
  allowBlank: boolean;
  blanksHref: string;
  disabled: boolean;
  saving: Pick<ReturnType<typeof useWorkSaving>, 'values' | 'change' | 'commit' | 'files'>;
  loadContainer: ContainerLoader;
  /** Read-aloud buttons on task text (the participant's accommodations). */
  readAloud?: boolean;
}

export function RunnerTasks({
  tasks,
  nav: { index, task, goTo, headingRef },
  answered,
  flags,
  unsaved,
  instructionHtml,
  modes,
  onMode,
  onToggleFlag,
  allowBlank,
  blanksHref,
  disabled,
  saving: { values, change, commit, files },
  loadContainer,
  readAloud = false,
}: RunnerTasksProps) {
  const { t } = useTranslation();
  const toggleFlag = useCallback(() => onToggleFlag(task.variantTaskId), [onToggleFlag, task.variantTaskId]);
  return (
    <div className="runner-body">
      <TaskNav
        tasks={tasks}
        currentIndex={index}
        answered={answered}
        flagged={flags}
        unsaved={unsaved}
        onSelect={goTo}
      />
      <main className="runner-task" id="main">
        {instructionHtml && index === 0 && (
          <details className="runner-instruction">
            <summary>{t('runner.instruction')}</summary>
            <RichHtml html={instructionHtml} />
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
          allowBlank={allowBlank}
          blanksHref={blanksHref}
          disabled={disabled}
          knownFiles={files.knownFiles}
          waitingFiles={files.waitingFiles(task.variantTaskId)}
          onChange={(value) => change(task.variantTaskId, value)}
          onCommit={() => void commit(task.variantTaskId)}
          onToggleFlag={toggleFlag}
          onMode={(mode) => void onMode(task.variantTaskId, mode)}
          onPrev={() => goTo(index - 1)}
          onNext={() => goTo(index + 1)}
          upload={files.uploaderFor(task.variantTaskId)}
          loadContainer={loadContainer}
          readAloud={readAloud}
        />
      </main>
    </div>
  );
}
