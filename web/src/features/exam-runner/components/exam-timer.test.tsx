import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { i18n } from '../../../lib/i18n';
import { ExamTimer } from './exam-timer';

const nb = '\u00a0'; // lib/format's formatDuration joins a number and its unit with a no-break space

describe('the exam timer for a screen reader', () => {
  it('is a timer that states the time left in words; the digits and the «Осталось» label are hidden', async () => {
    await i18n.changeLanguage('ru');
    render(
      <MantineProvider>
        <ExamTimer secondsLeft={5405} paused={false} />
      </MantineProvider>,
    );
    const timer = screen.getByRole('timer');
    expect(screen.getByTestId('timer')).toHaveTextContent('1:30:05');
    expect(screen.getByTestId('timer')).toHaveAttribute('aria-hidden', 'true');
    expect(screen.getByTestId('timer-words').textContent).toBe(
      `До конца работы осталось 1${nb}ч 30${nb}мин 5${nb}с`,
    );
    expect(timer.querySelector('.exam-timer-label')).toHaveAttribute('aria-hidden', 'true');
    // Not live: a change every second is not announced (warnings are, by the runner).
    expect(timer).not.toHaveAttribute('aria-live');
  });

  it('says it is paused as well as the time left', async () => {
    await i18n.changeLanguage('ru');
    render(
      <MantineProvider>
        <ExamTimer secondsLeft={60} paused />
      </MantineProvider>,
    );
    const timer = screen.getByRole('timer');
    expect(timer.querySelector('.exam-timer-label')).not.toHaveAttribute('aria-hidden');
    expect(timer).toHaveTextContent('Пауза');
    expect(screen.getByTestId('timer-words').textContent).toBe(`До конца работы осталось 1${nb}мин`);
  });
});
