import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { AppProviders } from '../../../test/test-app';
import { createI18n } from '../../../lib/i18n';
import { createQueryClient } from '../../../lib/query-client';
import { TaskNav } from './task-nav';

// Issue 23, item 6: the task strip shows that it scrolls when its numbers do not fit (a phone).

const tasks = Array.from({ length: 20 }, (_, i) => ({ variantTaskId: 100 + i, position: i + 1 }));
const none = new Set<number>();

function Harness() {
  const [index, setIndex] = useState(0);
  return (
    <TaskNav
      tasks={tasks}
      currentIndex={index}
      answered={none}
      flagged={none}
      unsaved={none}
      onSelect={setIndex}
    />
  );
}

/** jsdom lays nothing out: the list gets the sizes a 390 px phone gives it (20 × 50 px in 300 px). */
function layOut(list: HTMLElement) {
  let left = 0;
  Object.defineProperty(list, 'clientWidth', { configurable: true, get: () => 300 });
  Object.defineProperty(list, 'scrollWidth', { configurable: true, get: () => 1000 });
  Object.defineProperty(list, 'scrollLeft', {
    configurable: true,
    get: () => left,
    set: (v: number) => {
      left = Math.max(0, Math.min(700, v));
      list.dispatchEvent(new Event('scroll'));
    },
  });
  Object.defineProperty(list, 'scrollBy', {
    configurable: true,
    value: ({ left: by }: ScrollToOptions) => {
      list.scrollLeft = left + (by ?? 0);
    },
  });
  list.getBoundingClientRect = () => new DOMRect(0, 0, 300, 44);
  list.querySelectorAll<HTMLButtonElement>('button').forEach((button, i) => {
    button.getBoundingClientRect = () => new DOMRect(i * 50 - left, 0, 44, 44);
  });
}

function renderStrip() {
  render(
    <AppProviders queryClient={createQueryClient()} i18n={createI18n('ru')}>
      <Harness />
    </AppProviders>,
  );
  const strip = screen.getByTestId('task-nav-strip');
  const list = strip.querySelector('ol')!;
  return { strip, list };
}

describe('the task strip', () => {
  it('shows nothing extra when every number fits', () => {
    const { strip } = renderStrip();
    expect(strip).not.toHaveAttribute('data-hidden-after');
    expect(strip).not.toHaveAttribute('data-hidden-before');
    expect(screen.queryByTestId('task-nav-scroll-on')).toBeNull();
    expect(screen.queryByTestId('task-nav-scroll-back')).toBeNull();
  });

  it('marks the side where numbers are hidden and scrolls to them by its button', async () => {
    const { strip, list } = renderStrip();
    layOut(list);
    act(() => void list.dispatchEvent(new Event('scroll')));
    // At the start: more to the right, nothing to the left.
    expect(strip).toHaveAttribute('data-hidden-after', 'true');
    expect(strip).not.toHaveAttribute('data-hidden-before');
    const on = screen.getByRole('button', { name: 'Показать следующие задания' });
    expect(screen.queryByTestId('task-nav-scroll-back')).toBeNull();

    await userEvent.click(on);
    expect(list.scrollLeft).toBeGreaterThan(0);
    // Somewhere in the middle: hidden numbers on both sides, a button on each.
    expect(strip).toHaveAttribute('data-hidden-before', 'true');
    expect(strip).toHaveAttribute('data-hidden-after', 'true');
    expect(screen.getByRole('button', { name: 'Показать предыдущие задания' })).toBeInTheDocument();

    act(() => void (list.scrollLeft = 700));
    expect(strip).not.toHaveAttribute('data-hidden-after');
    expect(screen.queryByTestId('task-nav-scroll-on')).toBeNull();
    await userEvent.click(screen.getByTestId('task-nav-scroll-back'));
    expect(list.scrollLeft).toBeLessThan(700);
  });

  it('keeps the current task’s number in view as the participant moves on', () => {
    const { list } = renderStrip();
    layOut(list);
    act(() => void list.dispatchEvent(new Event('scroll')));
    // Task 12 sits at 550–594 px, beyond the 300 px the strip shows.
    fireEvent.click(screen.getByTestId('task-nav-12'));
    expect(list.scrollLeft).toBeGreaterThanOrEqual(594 - 300);
    expect(list.scrollLeft).toBeLessThanOrEqual(550);
  });
});
