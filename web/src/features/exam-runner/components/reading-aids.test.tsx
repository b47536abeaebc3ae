import 'fake-indexeddb/auto';
import { NO_ACCOMMODATIONS, type Accommodations } from '@attesta/contract';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, json, renderApp, users } from '../../../test/test-app';
import { currentTest, variant, workState } from '../test-fixtures';

// Issue 14, item 2: the runner applies the participant's accommodations and gives everyone reading aids.

configure({ asyncUtilTimeout: 5000 });
vi.setConfig({ testTimeout: 20_000 });

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  sessionStorage.clear();
  localStorage.clear();
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  document.documentElement.style.fontSize = '';
});

let nextWorkId = 9100;

function sitting(accommodations: Accommodations | null) {
  const id = ++nextWorkId;
  const work = workState(id);
  const base = currentTest(work);
  const current = { ...base, participant: { ...base.participant, accommodations } };
  fakeServer({
    'GET /api/user': () => json(200, users.participant),
    'GET /api/user/sessionTime': () => json(200, '2030-01-01T12:00:00.000Z'),
    'GET /api/exam/test/currentParticipantTest': () => json(200, current),
    'GET /api/exam/test/variant/current': () => json(200, variant),
    [`GET /api/exam/test/examwork/${id}`]: () => json(200, { ...work, serverTime: new Date().toISOString() }),
    [`GET /api/exam/test/examwork/left/${id}`]: () =>
      json(200, {
        examWorkId: id,
        secondsLeft: 45 * 60,
        deadlineAt: work.deadlineAt,
        status: 'in_progress',
        paused: false,
        serverTime: new Date().toISOString(),
      }),
  });
}

async function openRunner() {
  renderApp('/participant/work');
  expect(await screen.findByTestId('task-1', {}, { timeout: 5000 })).toBeInTheDocument();
  return screen.getByTestId('runner');
}

class FakeUtterance {
  lang = '';
  onend: (() => void) | null = null;
  onerror: (() => void) | null = null;
  constructor(public text: string) {}
}

describe('the runner with an accommodations profile', () => {
  it('starts with large text, high contrast and the reading ruler', async () => {
    sitting({ ...NO_ACCOMMODATIONS, largeText: true, theme: 'high_contrast', lineReader: true });
    const runner = await openRunner();
    expect(runner).toHaveClass('runner--large-text', 'runner--high-contrast');
    expect(runner).toHaveAttribute('data-text-size', 'large');
    expect(document.documentElement.style.fontSize).toBe('125%');
    expect(screen.getByTestId('line-reader')).toHaveAttribute('aria-hidden', 'true');
  });

  it('reads the task aloud where the browser can speak, and offers nothing where it cannot', async () => {
    const speak = vi.fn();
    const cancel = vi.fn();
    vi.stubGlobal('speechSynthesis', { speak, cancel });
    vi.stubGlobal('SpeechSynthesisUtterance', FakeUtterance);
    sitting({ ...NO_ACCOMMODATIONS, textToSpeech: true });
    await openRunner();
    const button = within(screen.getByTestId('task-1')).getByRole('button', {
      name: /Прочитать задание вслух/,
    });
    await userEvent.click(button);
    expect(speak).toHaveBeenCalledTimes(1);
    const utterance = speak.mock.calls[0]![0] as FakeUtterance;
    expect(utterance.lang).toBe('ru-RU');
    expect(utterance.text.length).toBeGreaterThan(0);
    expect(utterance.text).not.toMatch(/[<>]/);
    expect(button).toHaveAttribute('aria-pressed', 'true');
  });

  it('has no read-aloud button without speech synthesis', async () => {
    vi.stubGlobal('speechSynthesis', undefined);
    sitting({ ...NO_ACCOMMODATIONS, textToSpeech: true });
    await openRunner();
    expect(screen.queryByTestId('read-aloud')).toBeNull();
  });
});

describe('the reading aids for everyone', () => {
  it('a participant without a profile starts plain and changes text size, colours and the ruler', async () => {
    vi.stubGlobal('speechSynthesis', { speak: vi.fn(), cancel: vi.fn() });
    sitting(null);
    const runner = await openRunner();
    expect(runner).not.toHaveClass('runner--large-text');
    expect(runner).not.toHaveClass('runner--high-contrast');
    expect(screen.queryByTestId('line-reader')).toBeNull();
    // Read-aloud is an accommodation, not a common tool.
    expect(screen.queryByTestId('read-aloud')).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: /Удобство чтения/ }));
    const panel = await screen.findByTestId('reader-tools-panel');
    await userEvent.click(within(panel).getByText('Очень крупный'));
    await waitFor(() => expect(runner).toHaveAttribute('data-text-size', 'larger'));
    expect(runner).toHaveClass('runner--large-text');
    expect(document.documentElement.style.fontSize).toBe('150%');
    await userEvent.click(within(panel).getByText('Высокий контраст'));
    await waitFor(() => expect(runner).toHaveClass('runner--high-contrast'));
    fireEvent.click(within(panel).getByLabelText('Линейка для чтения'));
    expect(await screen.findByTestId('line-reader')).toBeInTheDocument();

    await userEvent.click(within(panel).getByText('Тёмное'));
    await waitFor(() => expect(runner).toHaveClass('runner--dark'));
    expect(runner).not.toHaveClass('runner--high-contrast');
    await waitFor(() =>
      expect(document.documentElement).toHaveAttribute('data-mantine-color-scheme', 'dark'),
    );
    // Back to the usual colours: the app's own (light) scheme again.
    await userEvent.click(within(panel).getByText('Обычное'));
    await waitFor(() =>
      expect(document.documentElement).toHaveAttribute('data-mantine-color-scheme', 'light'),
    );
    expect(runner).not.toHaveClass('runner--dark');
  });
});
