/**
 * Which task is shown: kept per work in sessionStorage (a reload opens the same task), moved with
 * the buttons, the task list or Alt+←/→ (Alt+F flags), and the keyboard and screen reader put on
 * the new task's heading after a move.
 */
import { useCallback, useEffect, useRef, useState } from 'react';

interface Options<T extends { variantTaskId: number }> {
  examWorkId: number;
  tasks: readonly T[];
  /** Runs before leaving a task (the pending change of the task is saved at once). */
  beforeMove: () => unknown;
  /** No shortcut works (paused, finished). */
  disabled: boolean;
  onToggleFlag: (variantTaskId: number) => void;
}

export function useTaskNavigation<T extends { variantTaskId: number }>({
  examWorkId,
  tasks,
  beforeMove,
  disabled,
  onToggleFlag,
}: Options<T>) {
  const positionKey = `attesta.task.${examWorkId}`;
  const [index, setIndex] = useState(() => {
    const saved = Number(sessionStorage.getItem(positionKey));
    return Number.isInteger(saved) && saved >= 0 && saved < tasks.length ? saved : 0;
  });
  const headingRef = useRef<HTMLHeadingElement>(null);
  // Counts the moves, not the index: Enter on the current task's number in the list goes to its
  // heading too (nothing would happen for a keyboard or screen reader user otherwise).
  const [moves, setMoves] = useState(0);

  const goTo = useCallback(
    (next: number) => {
      if (next < 0 || next >= tasks.length) return;
      void beforeMove();
      setMoves((n) => n + 1);
      setIndex(next);
      sessionStorage.setItem(positionKey, String(next));
    },
    [beforeMove, tasks.length, positionKey],
  );

  // Switching tasks puts the keyboard and screen reader on the new task's heading.
  useEffect(() => {
    if (moves) headingRef.current?.focus();
  }, [moves]);

  const task = tasks[index]!;

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!e.altKey || e.ctrlKey || e.metaKey || disabled) return;
      if (e.key === 'ArrowRight') {
        e.preventDefault();
        goTo(index + 1);
      } else if (e.key === 'ArrowLeft') {
        e.preventDefault();
        goTo(index - 1);
      } else if (e.code === 'KeyF') {
        e.preventDefault();
        onToggleFlag(task.variantTaskId);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [goTo, index, disabled, onToggleFlag, task.variantTaskId]);

  return { index, task, goTo, headingRef };
}
