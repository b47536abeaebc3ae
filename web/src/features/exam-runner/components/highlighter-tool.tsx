/**
 * The runner's highlighter (docs/accommodations.md), for everyone: select text of the task and
 * press «Выделить» to mark it; a click on a mark removes it, «Снять» removes all of this task's.
 * Marks stay in this browser's session per task (lib/highlights) and are never sent.
 */
import { Button } from '../../../components/lite/core';
import { notifications } from '../../../components/lite/notify';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import {
  addSpan,
  loadSpans,
  markIndexOf,
  paint,
  removeSpan,
  saveSpans,
  spanOf,
  unpaint,
} from '../lib/highlights';

/** The stem of the task on screen (one task is shown at a time). */
const stemOf = () => document.querySelector('.runner-task .task-html');

export function HighlighterTool({ taskKey }: { taskKey: string | null }) {
  const { t } = useTranslation();

  // Draw this task's marks once it is on screen; a click on a mark removes it.
  useEffect(() => {
    if (!taskKey) return;
    const root = stemOf();
    if (root) paint(root, loadSpans(taskKey));
    const onClick = (e: MouseEvent) => {
      const stem = stemOf();
      const target = e.target instanceof Element ? e.target : null;
      const i = markIndexOf(target);
      if (!stem || i === null || !stem.contains(target)) return;
      const spans = removeSpan(loadSpans(taskKey), i);
      saveSpans(taskKey, spans);
      paint(stem, spans);
    };
    document.addEventListener('click', onClick);
    return () => document.removeEventListener('click', onClick);
  }, [taskKey]);

  const mark = () => {
    const root = stemOf();
    const selection = window.getSelection();
    const span =
      root && taskKey && selection && selection.rangeCount > 0 ? spanOf(root, selection.getRangeAt(0)) : null;
    if (!root || !taskKey || !span) {
      notifications.show({ message: t('runner.highlighter.selectFirst') });
      return;
    }
    const spans = addSpan(loadSpans(taskKey), span);
    saveSpans(taskKey, spans);
    paint(root, spans);
    selection?.removeAllRanges();
  };
  const clear = () => {
    const root = stemOf();
    if (taskKey) saveSpans(taskKey, []);
    if (root) unpaint(root);
  };

  return (
    <Button.Group>
      <Button
        variant="default"
        // Pressing the button must not take the selection away before it is read.
        onMouseDown={(e) => e.preventDefault()}
        onClick={mark}
        data-testid="highlight-mark"
      >
        {t('runner.highlighter.mark')}
      </Button>
      <Button variant="default" onClick={clear} data-testid="highlight-clear">
        {t('runner.highlighter.clear')}
      </Button>
    </Button.Group>
  );
}
