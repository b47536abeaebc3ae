import { useEffect, useRef, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useScrollEdges } from '../hooks/use-scroll-edges';
import './task-nav.css';

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

/** Room the edge buttons take over the strip: a number brought into view is not left under one. */
const EDGE_ROOM = 44;

const reducedMotion = () =>
  typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;

/**
 * Task numbers 1..N with their state. One tab stop (roving tabindex): arrow keys, Home and End
 * move between numbers, Enter or Space opens the task.
 *
 * On a narrow screen the numbers are one sideways-scrolling row (global.css). That it scrolls is
 * shown, not left to be guessed: the side where numbers are hidden fades out and carries a button
 * that brings the next ones into view, and the current task's number is kept in view.
 */
export function TaskNav({ tasks, currentIndex, answered, flagged, unsaved, onSelect }: TaskNavProps) {
  const { t } = useTranslation();
  const listRef = useRef<HTMLOListElement>(null);
  const edges = useScrollEdges(listRef, tasks.length);

  // The current number in view, by scrolling the strip only (never the page).
  useEffect(() => {
    const list = listRef.current;
    const button = list?.querySelectorAll<HTMLButtonElement>('button')[currentIndex];
    if (!list || !button || list.scrollWidth <= list.clientWidth) return;
    const box = list.getBoundingClientRect();
    const at = button.getBoundingClientRect();
    if (at.left < box.left + EDGE_ROOM) list.scrollLeft -= box.left + EDGE_ROOM - at.left;
    else if (at.right > box.right - EDGE_ROOM) list.scrollLeft += at.right - (box.right - EDGE_ROOM);
  }, [currentIndex]);

  const scrollStrip = (direction: 1 | -1) => {
    const list = listRef.current;
    if (!list) return;
    const left = direction * Math.max(EDGE_ROOM, list.clientWidth - 2 * EDGE_ROOM);
    if (typeof list.scrollBy === 'function')
      list.scrollBy({ left, behavior: reducedMotion() ? 'auto' : 'smooth' });
    else list.scrollLeft += left;
  };

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
      <div
        className="task-nav-strip"
        data-hidden-before={edges.before || undefined}
        data-hidden-after={edges.after || undefined}
        data-testid="task-nav-strip"
      >
        {/* Pointer and touch helpers: the keyboard moves along the numbers and they scroll along. */}
        {edges.before && (
          <button
            type="button"
            className="task-nav-edge task-nav-edge-before"
            tabIndex={-1}
            aria-label={t('runner.nav.scrollBack')}
            title={t('runner.nav.scrollBack')}
            onClick={() => scrollStrip(-1)}
            data-testid="task-nav-scroll-back"
          >
            <span aria-hidden="true">‹</span>
          </button>
        )}
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
        {edges.after && (
          <button
            type="button"
            className="task-nav-edge task-nav-edge-after"
            tabIndex={-1}
            aria-label={t('runner.nav.scrollOn')}
            title={t('runner.nav.scrollOn')}
            onClick={() => scrollStrip(1)}
            data-testid="task-nav-scroll-on"
          >
            <span aria-hidden="true">›</span>
          </button>
        )}
      </div>
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
