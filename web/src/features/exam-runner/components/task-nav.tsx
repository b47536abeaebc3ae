import { useRef, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';

export interface NavTask {
  variantTaskId: number;
  position: number;
}

interface TaskNavProps {
  tasks: readonly NavTask[];
  currentIndex: number;
  answered: ReadonlySet<number>;
  flagged: ReadonlySet<number>;
  unsaved: ReadonlySet<number>;
  onSelect: (index: number) => void;
}

/**
 * Task numbers 1..N with their state. One tab stop (roving tabindex): arrow keys, Home and End
 * move between numbers, Enter or Space opens the task.
 */
export function TaskNav({ tasks, currentIndex, answered, flagged, unsaved, onSelect }: TaskNavProps) {
  const { t } = useTranslation();
  const listRef = useRef<HTMLOListElement>(null);

  const focusAt = (index: number) => {
    const buttons = listRef.current?.querySelectorAll<HTMLButtonElement>('button');
    buttons?.[index]?.focus();
  };

  const onKeyDown = (index: number) => (e: KeyboardEvent<HTMLButtonElement>) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const last = tasks.length - 1;
    const target =
      e.key === 'ArrowRight' || e.key === 'ArrowDown'
        ? Math.min(last, index + 1)
        : e.key === 'ArrowLeft' || e.key === 'ArrowUp'
          ? Math.max(0, index - 1)
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? last
              : null;
    if (target === null) return;
    e.preventDefault();
    focusAt(target);
  };

  return (
    <nav aria-label={t('runner.nav.label')} className="task-nav">
      <ol ref={listRef} className="task-nav-list">
        {tasks.map((task, index) => {
          const id = task.variantTaskId;
          const isCurrent = index === currentIndex;
          const states = [
            answered.has(id) ? t('runner.nav.answered') : t('runner.nav.notAnswered'),
            flagged.has(id) ? t('runner.nav.flagged') : null,
            unsaved.has(id) ? t('runner.nav.unsaved') : null,
          ].filter(Boolean);
          return (
            <li key={id}>
              <button
                type="button"
                className="task-nav-button"
                tabIndex={isCurrent ? 0 : -1}
                aria-current={isCurrent ? 'step' : undefined}
                aria-label={`${t('runner.taskN', { n: task.position })}: ${states.join(', ')}`}
                data-answered={answered.has(id) || undefined}
                data-flagged={flagged.has(id) || undefined}
                data-unsaved={unsaved.has(id) || undefined}
                data-current={isCurrent || undefined}
                data-testid={`task-nav-${task.position}`}
                onClick={() => onSelect(index)}
                onKeyDown={onKeyDown(index)}
              >
                {task.position}
                {flagged.has(id) && (
                  <span className="task-nav-flag" aria-hidden="true">
                    ⚑
                  </span>
                )}
                {unsaved.has(id) && <span className="task-nav-unsaved" aria-hidden="true" />}
              </button>
            </li>
          );
        })}
      </ol>
      <ul className="task-nav-legend" aria-hidden="true">
        <li>
          <span className="legend-swatch legend-answered" /> {t('runner.nav.answered')}
        </li>
        <li>
          <span className="legend-swatch" /> {t('runner.nav.notAnswered')}
        </li>
        <li>⚑ {t('runner.nav.flagged')}</li>
        <li>
          <span className="legend-dot" /> {t('runner.nav.unsaved')}
        </li>
      </ul>
    </nav>
  );
}
